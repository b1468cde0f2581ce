import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import { route, type RouteDef } from '../../http/route';
import { builderAccount } from '../operations/projectAccount';
import { siteRegistrationSchema } from './connectAnswer';
import * as docs from './docs';
import { readFormRouting, switchFormRouting } from './formRouting';
import { reregisterWebhooks } from './reregister';

const tags = ['Site platform'];
const ROUTING_PATH = '/api/builder/site-platform/{projectId}/forms/routing';
const projectParams = z.strictObject({ projectId: z.string().describe('A project of the account (uuid).') });

const formRef = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, { error: 'is required' })
      .max(256)
      .describe("The form's name as the platform's form_submission webhook filter `{ name }` takes it (the form's `displayName`)."),
  })
  .describe('A form of the site, by name.');

const routingBody = z.union([
  z.strictObject({ mode: z.literal('site_wide') }),
  z.strictObject({ mode: z.literal('per_form'), forms: z.array(formRef).min(1).max(75) }),
  z.strictObject({ form: formRef, routed: z.boolean() }),
]);

const routingSchema = z
  .object({
    project_id: z.string(),
    connection_id: z.string(),
    site_id: z.string(),
    mode: z.enum(['site_wide', 'per_form']),
    forms: z.array(z.object({ name: z.string() })),
    site_wide_hook_live: z.boolean(),
    registrations: z.array(
      z.object({
        id: z.string(),
        triggerType: z.string(),
        filter: z.object({ name: z.string() }).nullable(),
        createdOn: z.string().nullable(),
        receiver: z.enum(['current', 'stale', 'other']),
      }),
    ),
  })
  .meta({ id: 'SitePlatformFormRouting' });

/** Re-registration of a connection's receiver webhooks, and a site's form routing. */
export function sitePlatformRegistrationRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/builder/site-platform/connections/{id}/reregister-webhooks',
        operationId: 'reregisterSitePlatformWebhooks',
        tags,
        auth: { kind: 'session', roles: ['owner', 'admin'] },
        summary: 'Re-register the receiver webhooks on every site of a connection, at the current URL.',
        description: docs.REREGISTER,
        params: idParams,
        responses: {
          200: {
            description: 'Per site: created, adopted, deleted and failed registrations.',
            schema: z.object({ connection_id: z.string(), sites: z.array(siteRegistrationSchema) }),
          },
        },
        errors: docs.REREGISTER_ERRORS,
      },
      async ({ params, auth, deps }) => ({ body: await reregisterWebhooks(deps, accountOf(auth), params.id) }),
    ),

    route(
      {
        method: 'get',
        path: ROUTING_PATH,
        operationId: 'getSitePlatformFormRouting',
        tags,
        auth: { kind: 'sessionOrAgentSecret' },
        summary: "Read a project's site form routing: site-wide or per form name, with the live form_submission registrations.",
        description: docs.ROUTING_GET,
        params: projectParams,
        responses: { 200: { description: 'The routing', schema: routingSchema } },
        errors: docs.ROUTING_ERRORS,
      },
      async ({ params, auth, deps, ctx }) => {
        const accountId = await builderAccount(deps.db, auth, params.projectId, ctx.get('x-account-id') || undefined);
        return { body: await readFormRouting(deps, accountId, params.projectId) };
      },
    ),

    route(
      {
        method: 'post',
        path: ROUTING_PATH,
        operationId: 'switchSitePlatformFormRouting',
        tags,
        auth: { kind: 'sessionOrAgentSecret' },
        summary: "Switch a project's site form routing: site-wide, per-form for named forms, or one form on or off.",
        description: docs.ROUTING_POST,
        params: projectParams,
        body: routingBody,
        responses: {
          200: {
            description: 'The routing after the switch, and what the registration did.',
            schema: routingSchema.extend({ report: siteRegistrationSchema }),
          },
        },
        errors: docs.ROUTING_ERRORS,
      },
      async ({ params, body, auth, deps, ctx }) => {
        const accountId = await builderAccount(deps.db, auth, params.projectId, ctx.get('x-account-id') || undefined);
        return { body: await switchFormRouting(deps, accountId, params.projectId, body) };
      },
    ),
  ];
}
