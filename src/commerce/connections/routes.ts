import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { AuthSpec } from '../../auth/types';
import { idParams } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { connectionDetailSchema, connectionSchema, toConnectionJson, toRegistrationJson, toSubscriptionJson, webhookRegistrationSchema } from './json';
import { disconnectConnection, listConnections, listSubscriptions, requireConnection, verifyConnection } from './service';
import { registerStandardWebhooks } from './webhooks';

const tags = ['Commerce'];
const adminOnly: AuthSpec = { kind: 'session', roles: ['owner', 'admin'] };
const notFound = { status: 404, code: 'commerce_connection_not_found', description: 'No connection with this id in your account (also for a malformed id).' };
const disconnected = { status: 409, code: 'commerce_connection_disconnected', description: 'The connection is disconnected; connect the shop again.' };
const unreadable = { status: 503, code: 'commerce_token_unreadable', description: 'The stored token cannot be decrypted with COMMERCE_TOKEN_ENCRYPTION_KEY or its _PREVIOUS key (a key was lost); reconnect the shop.' };
const upstream = [
  unreadable,
  { status: 502, code: 'commerce_unauthorized', description: 'The shop rejected the stored token (the app was uninstalled or the grant revoked); `upstreamStatus` carries the platform\'s status.' },
  { status: 502, code: 'commerce_unavailable', description: 'The platform failed (5xx, `upstreamStatus`) or answered a malformed body; 503 when it did not answer in time.' },
  { status: 429, code: 'commerce_rate_limited', description: 'The shop\'s call bucket stayed full after bounded retries; `retry_after_seconds` says when to retry.' },
];

const detail = async (db: Parameters<typeof listSubscriptions>[0], accountId: string, row: Parameters<typeof toConnectionJson>[0]) => ({
  ...toConnectionJson(row),
  webhook_subscriptions: (await listSubscriptions(db, accountId, row.id)).map(toSubscriptionJson),
});

/** The account's connected shops. Tokens are never part of any answer. */
export function connectionRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/api/commerce/connections', operationId: 'listCommerceConnections', tags, auth: { kind: 'session' },
      summary: 'List the account\'s commerce connections (one per shop), oldest first.',
      description: 'Answers `{ data, total, page, limit }`; `page` defaults to 1, `limit` to 25 (maximum 100). Disconnected shops stay listed with `status: disconnected`.',
      query: z.strictObject({ ...pageQuery }),
      responses: { 200: { description: 'A page of connections', schema: listEnvelopeSchema(connectionSchema) } },
    }, async ({ query, auth, deps }) => {
      const { rows, total } = await listConnections(deps.db, accountOf(auth), query);
      return { body: listEnvelope(rows.map(toConnectionJson), total, query) };
    }),

    route({
      method: 'get', path: '/api/commerce/connections/{id}', operationId: 'getCommerceConnection', tags, auth: { kind: 'session' },
      summary: 'Read one connection with its webhook subscriptions.',
      params: idParams,
      responses: { 200: { description: 'The connection', schema: connectionDetailSchema } },
      errors: [notFound],
    }, async ({ params, auth, deps }) => {
      const accountId = accountOf(auth);
      return { body: await detail(deps.db, accountId, await requireConnection(deps.db, accountId, params.id)) };
    }),

    route({
      method: 'post', path: '/api/commerce/connections/{id}/disconnect', operationId: 'disconnectCommerceConnection', tags, auth: adminOnly,
      summary: 'Disconnect a shop.',
      description: 'Owner or admin. Deletes the shop\'s webhooks on the platform (best effort: a platform failure does not stop the disconnect), marks its subscriptions inactive, drops the stored admin token and sets `disconnected_at`. The app stays installed on the shop until the merchant uninstalls it; connecting again (POST /api/commerce/connect) restores the connection with the same id. Disconnecting a disconnected shop answers it unchanged.',
      params: idParams,
      responses: { 200: { description: 'The disconnected connection', schema: connectionDetailSchema } },
      errors: [notFound],
    }, async ({ params, auth, deps }) => {
      const accountId = accountOf(auth);
      return { body: await detail(deps.db, accountId, await disconnectConnection(deps, accountId, params.id)) };
    }),

    route({
      method: 'post', path: '/api/commerce/connections/{id}/verify', operationId: 'verifyCommerceConnection', tags, auth: adminOnly,
      summary: 'Check the stored token against the shop and refresh its name.',
      description: 'Owner or admin. Reads the shop live (`shop.json`) with the stored token and updates `shop_id` and `shop_name`. A token still sealed under the previous encryption key is re-sealed under the current one on the way.',
      params: idParams,
      responses: { 200: { description: 'The connection', schema: connectionDetailSchema } },
      errors: [notFound, disconnected, ...upstream],
    }, async ({ params, auth, deps }) => {
      const accountId = accountOf(auth);
      return { body: await detail(deps.db, accountId, await verifyConnection(deps, accountId, params.id)) };
    }),

    route({
      method: 'post', path: '/api/commerce/connections/{id}/webhooks', operationId: 'registerCommerceWebhooks', tags, auth: adminOnly,
      summary: 'Register the standard webhook topics again.',
      description: 'Owner or admin. Subscribes the shop to every standard topic at `<PUBLIC_APP_URL>/api/webhooks/commerce` (keeping subscriptions already there, moving ones at an old URL). Answers the connection and `{ registered, failed }` topics; a failed topic can be retried by calling this again.',
      params: idParams,
      responses: { 200: { description: 'The registration outcome', schema: z.object({ connection: connectionDetailSchema, webhooks: webhookRegistrationSchema }) } },
      errors: [notFound, disconnected, unreadable, { status: 503, code: 'commerce_not_configured', description: 'PUBLIC_APP_URL is not set on the service.' }],
    }, async ({ params, auth, deps }) => {
      const accountId = accountOf(auth);
      const connection = await requireConnection(deps.db, accountId, params.id);
      const result = await registerStandardWebhooks(deps, connection);
      return { body: { connection: await detail(deps.db, accountId, connection), webhooks: toRegistrationJson(result) } };
    }),
  ];
}
