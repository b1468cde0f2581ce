import { createHash } from 'node:crypto';
import type { Knex } from '../../db/knex';
import { requestHash, validIdempotencyKey, withIdempotency, type IdempotencyScope, type ReleaseRule } from '../../http/idempotency';
import type { RouteResult } from '../../http/route';

/**
 * Idempotency slots of the operation routes, kept in the shared idempotency_keys table (24 h, purged by its schedule).
 * The slot key is the Idempotency-Key header when sent, else `body:<sha256 of the canonical request>`, so on the agent
 * route a byte-identical retry replays even without a header. The generic wrapper runs it; beyond its 5xx, a 429 and a
 * 409 write_locked release the slot too (the write did not happen, the retry must run); every other outcome is cached,
 * sealed (a platform answer may carry a secret, e.g. a webhook's).
 */
export type Slot = IdempotencyScope;

export function slotFor(accountId: string, route: string, request: unknown, header: string | undefined): Slot {
  const hash = requestHash(request);
  const key = header ? validIdempotencyKey(header) : `body:${createHash('sha256').update(hash).digest('hex').slice(0, 48)}`;
  return { accountId, route, key, requestHash: hash };
}

const releases: ReleaseRule = (status, code) => status === 429 || status >= 500 || (status === 409 && code === 'write_locked');

export function withSlot<A extends RouteResult>(
  db: Knex,
  secretHashKey: string,
  slot: Slot,
  run: () => Promise<A>,
): Promise<A & Pick<RouteResult, 'headers'>> {
  return withIdempotency(db, secretHashKey, slot, run, releases);
}
