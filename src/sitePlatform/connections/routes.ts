import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import { route, type RouteDef } from '../../http/route';
import { projectNotFoundError } from '../../projects/docs';
import * as docs from './docs';
import { bindingSchema, connectionSchema, siteSchema, toBindingJson, toConnectionJson, toSiteJson } from './json';
import { oauthRoutes } from './oauthRoutes';
import { resolveCredentials } from './resolve';
import { bindingOfProject, disconnect, listConnections, listSites, requireConnection, setBinding } from './service';

const tags = ['Site platform'];
const notFound = {
  status: 404,
  code: 'site_platform_connection_not_found',
  description: 'No connection with this id in your account (also for a malformed id).',
};
const projectParams = z.strictObject({
  projectId: z.string().describe('A project of your account (uuid, see /api/projects); one binding per project.'),
});

const bindingBody = z.strictObject({
  override_mode: z.enum(['inherit', 'override', 'disabled']),
  connection_id: z
    .guid({ error: 'must be a uuid' })
    .nullable()
    .optional()
    .describe("Required for override: one of the account's live connections."),
  site_id: z.string().min(1).max(200).nullable().optional().describe("A platform site id among the account's sites; stored as a plain id."),
});

const resolvedSchema = z
  .object({
    connection_id: z.string(),
    auth_kind: z.enum(['oauth', 'site_token']),
    site_id: z.string().nullable(),
    source: z.enum(['override', 'account_default', 'site_row']),
  })
  .nullable();

/** Connections, sites and project bindings of the account; no answer ever carries a token. */
export function sitePlatformConnectionRoutes(): RouteDef[] {
  return [
    ...oauthRoutes(),

    route(
      {
        method: 'get',
        path: '/api/site-platform/connections',
        operationId: 'listSitePlatformConnections',
        tags,
        auth: { kind: 'session' },
        summary: "The account's site platform connections, oldest first; disconnected ones stay listed.",
        responses: { 200: { description: 'Connections', schema: z.object({ data: z.array(connectionSchema) }) } },
      },
      async ({ auth, deps }) => ({ body: { data: (await listConnections(deps.db, accountOf(auth))).map(toConnectionJson) } }),
    ),

    route(
      {
        method: 'get',
        path: '/api/site-platform/connections/{id}',
        operationId: 'getSitePlatformConnection',
        tags,
        auth: { kind: 'session' },
        summary: 'One connection.',
        params: idParams,
        responses: { 200: { description: 'The connection', schema: connectionSchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => ({ body: toConnectionJson(await requireConnection(deps, accountOf(auth), params.id)) }),
    ),

    route(
      {
        method: 'post',
        path: '/api/site-platform/connections/{id}/disconnect',
        operationId: 'disconnectSitePlatformConnection',
        tags,
        auth: { kind: 'session', roles: ['owner', 'admin'] },
        summary:
          'Disconnect: set `disconnected_at`, drop the sealed token, bust cached credentials, delete its webhook registrations, revoke an OAuth token.',
        description: docs.DISCONNECT,
        params: idParams,
        responses: {
          200: {
            description: 'The disconnected connection, plus `revocation`, `reverted_project_ids` and `webhooks`.',
            schema: connectionSchema.extend({
              revocation: z.enum(['revoked', 'failed', 'not_applicable']),
              reverted_project_ids: z.array(z.string()),
              webhooks: z
                .object({
                  removed: z.number().int(),
                  remaining: z.number().int(),
                })
                .describe(
                  "The connection's webhook registrations deleted on the platform (`removed`) and left there (`remaining`: the platform refused or was unreachable; the next registration run on their site deletes them).",
                ),
            }),
          },
        },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        const outcome = await disconnect(deps, accountOf(auth), params.id);
        return {
          body: {
            ...toConnectionJson(outcome.connection),
            revocation: outcome.revocation,
            reverted_project_ids: outcome.revertedProjectIds,
            webhooks: outcome.webhooks,
          },
        };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/site-platform/sites',
        operationId: 'listSitePlatformSites',
        tags,
        auth: { kind: 'session' },
        summary: "The account's sites (one row per platform site), with the connection that last shared each.",
        responses: { 200: { description: 'Sites', schema: z.object({ data: z.array(siteSchema) }) } },
      },
      async ({ auth, deps }) => ({ body: { data: (await listSites(deps.db, accountOf(auth))).map(toSiteJson) } }),
    ),

    route(
      {
        method: 'put',
        path: '/api/site-platform/projects/{projectId}/binding',
        operationId: 'setSitePlatformBinding',
        tags,
        auth: { kind: 'session', roles: ['owner', 'admin'] },
        summary: "Set a project's binding: inherit the account default, override with a connection, or disabled.",
        params: projectParams,
        body: bindingBody,
        responses: { 200: { description: 'The binding', schema: bindingSchema } },
        errors: [
          projectNotFoundError,
          { status: 400, code: 'invalid_reference', description: "`connection_id` or `site_id` is not the account's." },
          { status: 409, code: 'site_platform_connection_disconnected', description: 'The named connection is disconnected.' },
        ],
      },
      async ({ params, body, auth, deps }) => ({
        body: toBindingJson(
          await setBinding(deps, accountOf(auth), params.projectId, {
            override_mode: body.override_mode,
            connection_id: body.connection_id ?? null,
            site_id: body.site_id ?? null,
          }),
        ),
      }),
    ),

    route(
      {
        method: 'get',
        path: '/api/site-platform/projects/{projectId}/binding',
        operationId: 'getSitePlatformBinding',
        tags,
        auth: { kind: 'session' },
        summary: "A project's binding and what it resolves to now (override, then account default, then none).",
        description: docs.GET_BINDING,
        params: projectParams,
        query: z.strictObject({ site_id: z.string().min(1).max(200).optional() }),
        responses: {
          200: {
            description: 'Binding (null when never set) and resolution (null: no connection)',
            schema: z.object({ binding: bindingSchema.nullable(), resolved: resolvedSchema }),
          },
        },
        errors: [
          projectNotFoundError,
          {
            status: 503,
            code: 'site_platform_token_unreadable',
            description: 'The stored token cannot be decrypted with the configured keys.',
          },
        ],
      },
      async ({ params, query, auth, deps }) => {
        const accountId = accountOf(auth);
        const binding = await bindingOfProject(deps, accountId, params.projectId);
        const resolved = await resolveCredentials(deps, accountId, { projectId: params.projectId, siteId: query.site_id });
        return {
          body: {
            binding: binding ? toBindingJson(binding) : null,
            resolved: resolved && {
              connection_id: resolved.connectionId,
              auth_kind: resolved.authKind,
              site_id: resolved.siteId,
              source: resolved.source,
            },
          },
        };
      },
    ),
  ];
}
