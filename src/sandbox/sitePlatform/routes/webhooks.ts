/** Webhooks: list and create per site, get and delete by id. Like the platform, there is no update (no PATCH /webhooks/{id}). */
import { z } from 'zod';
import { json, parseBody, platformError, type SimResponse } from '../http';
import type { Route, RouteContext } from '../router';
import { iso, newId } from '../state';
import { siteData, type SimWebhook } from '../siteData';
import { findOwned, withSite } from './support';

const TRIGGERS = [
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

const view = (siteId: string, workspaceId: string, h: SimWebhook) => ({ ...structuredClone(h), siteId, workspaceId });

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
          webhooks: d.webhooks.map((h) => view(site.id, site.workspaceId, h)),
          pagination: { limit: 100, offset: 0, total: d.webhooks.length },
        }),
      ),
  },
  {
    method: 'POST',
    pattern: SITE_HOOKS,
    scope: 'sites:write',
    handle: (ctx) =>
      withSite(ctx, (site, d) => {
        // The platform registers webhooks for OAuth applications only.
        if (ctx.token.kind !== 'oauth') return platformError(403, 'forbidden', 'Webhooks can only be created by an OAuth application');
        const body = parseBody(ctx.req, createBody);
        if (!body.ok) return body.response;
        if (body.value.filter && body.value.triggerType !== 'form_submission') {
          return platformError(400, 'incompatible_webhook_filter', 'A filter is only supported for the form_submission trigger type', [
            { param: 'filter', description: body.value.triggerType },
          ]);
        }
        const hook: SimWebhook = {
          id: newId(),
          triggerType: body.value.triggerType,
          url: body.value.url,
          filter: body.value.filter ?? null,
          createdOn: iso(ctx.state.now()),
          lastTriggered: null,
        };
        d.webhooks.push(hook);
        return json(200, view(site.id, site.workspaceId, hook));
      }),
  },
  {
    method: 'GET',
    pattern: HOOK,
    scope: 'sites:read',
    handle: (ctx) => withWebhook(ctx, (siteId, h) => json(200, view(siteId, workspaceOf(ctx, siteId), h))),
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
