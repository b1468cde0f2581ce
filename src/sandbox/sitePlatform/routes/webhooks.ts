/**
 * Webhooks: list and create per site, get and delete by id. Like the platform, there is no update (no PATCH
 * /webhooks/{id}), site tokens are refused (403) unless issued with `webhooksAllowed`, and a site holds at most 75
 * registrations per trigger type. What a registration delivers is in ../deliveries.ts.
 */
import { z } from 'zod';
import { json, parseBody, platformError, type SimResponse } from '../http';
import type { Route, RouteContext } from '../router';
import { iso, newId, type SimState } from '../state';
import { siteData, type SimWebhook } from '../siteData';
import { findOwned, withSite } from './support';

export const TRIGGERS = [
  'form_submission',
  'site_publish',
  'page_created',
  'page_metadata_updated',
  'page_deleted',
  'ecomm_new_order',
  'ecomm_order_changed',
  'ecomm_inventory_changed',
  'collection_item_created',
  'collection_item_changed',
  'collection_item_deleted',
  'collection_item_published',
  'collection_item_unpublished',
  'comment_created',
] as const;

// The reference's WebhookFilter names a form; only the form_submission trigger takes one.
const createBody = z.object({
  triggerType: z.enum(TRIGGERS),
  url: z.url(),
  filter: z
    .object({ name: z.string().min(1) })
    .strict()
    .optional(),
});

/** The reference's Webhook; who registered it stays inside the simulator. */
export function webhookView(siteId: string, workspaceId: string, h: SimWebhook) {
  const { registeredBy: _by, ...rest } = structuredClone(h);
  return { ...rest, siteId, workspaceId };
}

export const MAX_WEBHOOKS_PER_TRIGGER = 75;

/**
 * The platform documents the limit (75 webhooks per trigger type) but not the error of the 76th; its create answers
 * 400 for a refused body, so the simulator answers 400 validation_error naming `triggerType`, like its other
 * refused creates: `{"code":"validation_error","message":"Validation Error: Maximum of 75 webhooks per trigger type
 * reached","externalReference":null,"details":[{"param":"triggerType","description":"form_submission"}]}`.
 */
export const webhookLimitReached = (triggerType: string): SimResponse =>
  platformError(400, 'validation_error', `Validation Error: Maximum of ${MAX_WEBHOOKS_PER_TRIGGER} webhooks per trigger type reached`, [
    { param: 'triggerType', description: triggerType },
  ]);

export interface WebhookInput {
  triggerType: (typeof TRIGGERS)[number];
  url: string;
  filter?: { name: string };
}

/** Adds a registration, or answers why not (the per-trigger limit). */
export function addWebhook(
  state: SimState,
  siteId: string,
  input: WebhookInput,
  registeredBy: SimWebhook['registeredBy'],
): { ok: true; hook: SimWebhook } | { ok: false; response: SimResponse } {
  const d = siteData(state, siteId);
  if (d.webhooks.filter((h) => h.triggerType === input.triggerType).length >= MAX_WEBHOOKS_PER_TRIGGER) {
    return { ok: false, response: webhookLimitReached(input.triggerType) };
  }
  const hook: SimWebhook = {
    id: newId(),
    triggerType: input.triggerType,
    url: input.url,
    filter: input.filter ?? null,
    createdOn: iso(state.now()),
    lastTriggered: null,
    registeredBy,
  };
  d.webhooks.push(hook);
  return { ok: true, hook };
}

function withWebhook(ctx: RouteContext, then: (siteId: string, h: SimWebhook) => SimResponse): SimResponse {
  const found = findOwned(ctx, 'Webhook', (d) => d.webhooks.find((h) => h.id === ctx.req.params.webhookId));
  return found.ok ? then(found.siteId, found.value) : found.response;
}

const workspaceOf = (ctx: RouteContext, siteId: string) => ctx.state.sites.get(siteId)!.workspaceId;
const SITE_HOOKS = /^\/sites\/(?<siteId>[^/]+)\/webhooks$/;
const HOOK = /^\/webhooks\/(?<webhookId>[^/]+)$/;

export const webhookRoutes: Route[] = [
  {
    method: 'GET',
    pattern: SITE_HOOKS,
    scope: 'sites:read',
    handle: (ctx) =>
      withSite(ctx, (site, d) =>
        json(200, {
          webhooks: d.webhooks.map((h) => webhookView(site.id, site.workspaceId, h)),
          pagination: { limit: 100, offset: 0, total: d.webhooks.length },
        }),
      ),
  },
  {
    method: 'POST',
    pattern: SITE_HOOKS,
    scope: 'sites:write',
    handle: (ctx) =>
      withSite(ctx, (site) => {
        // The platform registers webhooks for OAuth applications only (a site token with webhooksAllowed aside).
        const { token } = ctx;
        if (token.kind !== 'oauth' && !token.webhooksAllowed) {
          return platformError(403, 'forbidden', 'Webhooks can only be created by an OAuth application');
        }
        const body = parseBody(ctx.req, createBody);
        if (!body.ok) return body.response;
        if (body.value.filter && body.value.triggerType !== 'form_submission') {
          return platformError(400, 'incompatible_webhook_filter', 'A filter is only supported for the form_submission trigger type', [
            { param: 'filter', description: body.value.triggerType },
          ]);
        }
        const added = addWebhook(
          ctx.state,
          site.id,
          body.value,
          token.kind === 'oauth' && token.clientId ? { kind: 'oauth', clientId: token.clientId } : { kind: 'site_token' },
        );
        return added.ok ? json(200, webhookView(site.id, site.workspaceId, added.hook)) : added.response;
      }),
  },
  {
    method: 'GET',
    pattern: HOOK,
    scope: 'sites:read',
    handle: (ctx) => withWebhook(ctx, (siteId, h) => json(200, webhookView(siteId, workspaceOf(ctx, siteId), h))),
  },
  {
    method: 'DELETE',
    pattern: HOOK,
    scope: 'sites:write',
    handle: (ctx) =>
      withWebhook(ctx, (siteId, h) => {
        const list = siteData(ctx.state, siteId).webhooks;
        list.splice(list.indexOf(h), 1);
        return { status: 204 };
      }),
  },
];
