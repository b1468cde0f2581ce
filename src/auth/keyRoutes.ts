import { z } from 'zod';
import { route, type RouteDef } from '../http/route';
import { accountOf } from './authenticate';
import { agentKeyCacheOf } from './agentKeyRuntime';
import { PERMISSIONS } from './permissions';
import { agentKeySchema, toAgentKey } from './schemas';
import { createAgentKey, getAgentKey, pageAgentKeys, revokeAgentKey } from './service';
import type { AuthContext, AuthSpec } from './types';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../http/pagination';
import * as docs from './docs';

const tags = ['Agent keys'];
const managers: AuthSpec = { kind: 'session', roles: ['owner', 'admin'] };

const permission = z.enum(PERMISSIONS, {
  error: (issue) => `unknown permission ${JSON.stringify(issue.input)}; known: ${PERMISSIONS.join(', ')}`,
});

const newKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('A label for people, e.g. the agent or integration that holds the key.'),
  permissions: z
    .array(permission)
    .min(1)
    .max(PERMISSIONS.length * 2)
    .describe('What the key may do; duplicates are dropped. A key holds only what it is given.'),
  read_only: z.boolean().default(false).describe('Limit the key to GET routes. Default false.'),
});

const keyIdParams = z.strictObject({ id: z.uuid().describe('Agent key id.') });

const createdKey = agentKeySchema
  .extend({
    token: z.string().describe('The key (`wyk_…`), sent as `Authorization: Bearer <token>`. Shown once: only its hash is stored.'),
  })
  .meta({ id: 'AgentKeyWithToken' });

function agentOf(auth: AuthContext) {
  if (auth.kind !== 'agent') throw new Error('agent route reached without an agent key');
  return auth;
}

/** Agent API keys: managed by owners and admins with a session; `GET /api/agent/me` lets a key inspect itself. */
export function keyRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/agent-keys',
        operationId: 'listAgentKeys',
        tags,
        auth: managers,
        summary: 'Agent keys of the account, newest first, revoked ones included.',
        description: docs.listAgentKeysDescription,
        query: z.strictObject(pageQuery),
        responses: { 200: { description: 'A page of agent keys', schema: listEnvelopeSchema(agentKeySchema) } },
      },
      async ({ auth, deps, query }) => {
        const { rows, total } = await pageAgentKeys(deps.db, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toAgentKey), total, query) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/agent-keys',
        operationId: 'createAgentKey',
        tags,
        auth: managers,
        idempotent: true,
        summary: 'Create an agent key.',
        description: docs.createAgentKeyDescription,
        body: newKeyBody,
        responses: { 201: { description: docs.createAgentKeyResponsesR201Description, schema: createdKey } },
      },
      async ({ auth, deps, body }) => {
        const { key, token } = await createAgentKey(deps.db, deps.secretHashKey, accountOf(auth), {
          name: body.name,
          permissions: body.permissions,
          readOnly: body.read_only,
        });
        return { status: 201, body: { ...toAgentKey(key), token } };
      },
    ),

    route(
      {
        method: 'delete',
        path: '/api/agent-keys/{id}',
        operationId: 'revokeAgentKey',
        tags,
        auth: managers,
        summary: 'Revoke an agent key.',
        description: docs.revokeAgentKeyDescription,
        params: keyIdParams,
        responses: { 200: { description: 'The revoked key', schema: agentKeySchema } },
        errors: [{ status: 404, code: 'agent_key_not_found', description: 'No key with this id in the account.' }],
      },
      async ({ auth, deps, params }) => {
        const revoked = await revokeAgentKey(deps.db, accountOf(auth), params.id);
        // This process refuses the key from the next request on; other replicas when the database's announcement comes.
        agentKeyCacheOf(deps).invalidate(revoked.id);
        return { body: toAgentKey(revoked) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/agent/me',
        operationId: 'getAgentMe',
        tags,
        auth: { kind: 'agent' },
        summary: docs.getAgentMeSummary,
        description: docs.getAgentMeDescription,
        responses: {
          200: {
            description: 'The calling key',
            schema: z.object({
              account_id: z.string().meta({ format: 'uuid' }),
              key: agentKeySchema.pick({ id: true, name: true, permissions: true, read_only: true }),
            }),
          },
        },
      },
      async ({ auth, deps }) => {
        const { accountId, keyId } = agentOf(auth);
        const key = await getAgentKey(deps.db, accountId, keyId);
        return {
          body: { account_id: accountId, key: { id: key.id, name: key.name, permissions: key.permissions, read_only: key.read_only } },
        };
      },
    ),
  ];
}
