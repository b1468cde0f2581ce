import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { AuthSpec } from '../../auth/types';
import { idParams } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import {
  connectionDetailSchema,
  connectionRegistrationSchema,
  connectionSchema,
  toConnectionJson,
  toRegistrationJson,
  toSubscriptionJson,
} from './json';
import { disconnectConnection, listConnections, listSubscriptions, requireConnection, verifyConnection } from './service';
import { registerStandardWebhooks } from './webhooks';
import * as docs from './docs';

const tags = ['Commerce'];
const adminOnly: AuthSpec = { kind: 'session', roles: ['owner', 'admin'] };
const notFound = {
  status: 404,
  code: 'commerce_connection_not_found',
  description: 'No connection with this id in your account (also for a malformed id).',
};
const disconnected = { status: 409, code: 'commerce_connection_disconnected', description: docs.commerceConnectionDisconnectedError };
const unreadable = { status: 503, code: 'commerce_token_unreadable', description: docs.commerceTokenUnreadableError };
const upstream = [
  unreadable,
  { status: 502, code: 'commerce_unauthorized', description: docs.commerceUnauthorizedError },
  { status: 502, code: 'commerce_unavailable', description: docs.commerceUnavailableError },
  { status: 429, code: 'commerce_rate_limited', description: docs.commerceRateLimitedError },
  { status: 502, code: 'commerce_request_rejected', description: docs.commerceRequestRejectedError },
];

const detail = async (db: Parameters<typeof listSubscriptions>[0], accountId: string, row: Parameters<typeof toConnectionJson>[0]) => ({
  ...toConnectionJson(row),
  webhook_subscriptions: (await listSubscriptions(db, accountId, row.id)).map(toSubscriptionJson),
});

/** The account's connected shops. Tokens are never part of any answer. */
export function connectionRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/commerce/connections',
        operationId: 'listCommerceConnections',
        tags,
        auth: { kind: 'session' },
        summary: "List the account's commerce connections (one per shop), oldest first.",
        description: docs.listCommerceConnectionsDescription,
        query: z.strictObject({ ...pageQuery }),
        responses: { 200: { description: 'A page of connections', schema: listEnvelopeSchema(connectionSchema) } },
      },
      async ({ query, auth, deps }) => {
        const { rows, total } = await listConnections(deps.db, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toConnectionJson), total, query) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/commerce/connections/{id}',
        operationId: 'getCommerceConnection',
        tags,
        auth: { kind: 'session' },
        summary: 'Read one connection with its webhook subscriptions.',
        params: idParams,
        responses: { 200: { description: 'The connection', schema: connectionDetailSchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        const accountId = accountOf(auth);
        return { body: await detail(deps.db, accountId, await requireConnection(deps.db, accountId, params.id)) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/commerce/connections/{id}/disconnect',
        operationId: 'disconnectCommerceConnection',
        tags,
        auth: adminOnly,
        summary: 'Disconnect a shop.',
        description: docs.disconnectCommerceConnectionDescription,
        params: idParams,
        responses: { 200: { description: 'The disconnected connection', schema: connectionDetailSchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        const accountId = accountOf(auth);
        return { body: await detail(deps.db, accountId, await disconnectConnection(deps, accountId, params.id)) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/commerce/connections/{id}/verify',
        operationId: 'verifyCommerceConnection',
        tags,
        auth: adminOnly,
        summary: 'Check the stored token against the shop and refresh its name.',
        description: docs.verifyCommerceConnectionDescription,
        params: idParams,
        responses: { 200: { description: 'The connection', schema: connectionDetailSchema } },
        errors: [notFound, disconnected, ...upstream],
      },
      async ({ params, auth, deps }) => {
        const accountId = accountOf(auth);
        return { body: await detail(deps.db, accountId, await verifyConnection(deps, accountId, params.id)) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/commerce/connections/{id}/webhooks',
        operationId: 'registerCommerceWebhooks',
        tags,
        auth: adminOnly,
        summary: 'Register the standard webhook topics again.',
        description: docs.registerCommerceWebhooksDescription,
        params: idParams,
        responses: {
          200: {
            description: 'The registration outcome',
            schema: connectionRegistrationSchema,
          },
        },
        errors: [
          notFound,
          disconnected,
          unreadable,
          { status: 503, code: 'commerce_not_configured', description: 'PUBLIC_APP_URL is not set on the service.' },
        ],
      },
      async ({ params, auth, deps }) => {
        const accountId = accountOf(auth);
        const connection = await requireConnection(deps.db, accountId, params.id);
        const result = await registerStandardWebhooks(deps, connection);
        return { body: { connection: await detail(deps.db, accountId, connection), webhooks: toRegistrationJson(result) } };
      },
    ),
  ];
}
