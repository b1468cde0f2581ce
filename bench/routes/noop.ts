import { z } from 'zod';
import { accountOf } from '../../src/auth/authenticate';
import { route, type RouteDef } from '../../src/http/route';

export const NOOP_PATH = '/api/bench/noop';

/**
 * A bench-only route, mounted only in the bench servers (createApp's extra routes): an authenticated no-op through
 * the full route layer — session auth, query validation, request id, logging, metrics, error handling — whose
 * handler does nothing but answer the caller's account. What every route pays before its own work.
 */
export function benchNoopRoute(): RouteDef {
  return route(
    {
      method: 'get',
      path: NOOP_PATH,
      operationId: 'benchNoop',
      tags: ['Bench'],
      auth: { kind: 'session' },
      summary: 'Bench only: an authenticated no-op.',
      query: z.strictObject({}),
      responses: { 200: { description: 'The caller', schema: z.object({ ok: z.boolean(), account_id: z.string() }) } },
    },
    async ({ auth }) => ({ body: { ok: true, account_id: accountOf(auth) } }),
  );
}
