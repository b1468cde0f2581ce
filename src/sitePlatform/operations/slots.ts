import { createHash } from 'node:crypto';
import { deriveKey, open, seal } from '../../crypto/aesGcm';
import type { Knex } from '../../db/knex';
import { ApiError, errorBody } from '../../http/errors';
import { requestHash, validIdempotencyKey } from '../../http/idempotency';
import type { RouteResult } from '../../http/route';

/**
 * Idempotency slots of the operation routes, kept in the shared idempotency_keys table (24 h, purged by its schedule).
 * The slot key is the Idempotency-Key header when sent, else `body:<sha256 of the canonical request>`, so on the agent
 * route a byte-identical retry replays even without a header. Unlike the generic wrapper, a 429, any 5xx and a 409
 * write_locked release the slot (the write did not happen, the retry must run); every other outcome is cached.
 * Stored bodies are sealed like the generic wrapper's (a platform answer may carry a secret, e.g. a webhook's).
 */
export interface Slot { accountId: string; route: string; key: string; requestHash: string }

export function slotFor(accountId: string, route: string, request: unknown, header: string | undefined): Slot {
  const hash = requestHash(request);
  const key = header ? validIdempotencyKey(header) : `body:${createHash('sha256').update(hash).digest('hex').slice(0, 48)}`;
  return { accountId, route, key, requestHash: hash };
}

const releases = (status: number, code?: string) => status === 429 || status >= 500 || (status === 409 && code === 'write_locked');

const sealKeys = new Map<string, Buffer>();
function sealKeyOf(secretHashKey: string): Buffer {
  let key = sealKeys.get(secretHashKey);
  if (!key) sealKeys.set(secretHashKey, (key = deriveKey(secretHashKey, 'site-platform-op-slots')));
  return key;
}

export async function withSlot(db: Knex, secretHashKey: string, slot: Slot, run: () => Promise<RouteResult>): Promise<RouteResult> {
  const where = { account_id: slot.accountId, route: slot.route, key: slot.key };
  const claimed = await db.raw(
    `insert into idempotency_keys (account_id, route, key, request_hash, state) values (?, ?, ?, ?, 'in_progress')
     on conflict (account_id, route, key) do update
       set request_hash = excluded.request_hash, state = 'in_progress', response_status = null,
           response_headers = null, response_body_sealed = null, created_at = now(), completed_at = null
       where idempotency_keys.created_at < now() - interval '24 hours'
          or (idempotency_keys.state = 'in_progress' and idempotency_keys.created_at < now() - interval '10 minutes')
     returning 1`,
    [slot.accountId, slot.route, slot.key, slot.requestHash],
  );
  const sealKey = sealKeyOf(secretHashKey);
  if (claimed.rows.length === 0) return replay(db, sealKey, slot);

  let result: RouteResult;
  try {
    result = await run();
  } catch (err) {
    if (err instanceof ApiError && !releases(err.status, err.code)) {
      await store(db, sealKey, where, { status: err.status, body: errorBody(err), headers: {} });
    } else {
      await db('idempotency_keys').where(where).delete();
    }
    throw err;
  }
  if (releases(result.status ?? 200)) await db('idempotency_keys').where(where).delete();
  else await store(db, sealKey, where, result);
  return result;
}

async function store(db: Knex, sealKey: Buffer, where: object, result: RouteResult): Promise<void> {
  await db('idempotency_keys').where(where).update({
    state: 'completed', response_status: result.status ?? 200, response_headers: JSON.stringify(result.headers ?? {}),
    response_body_sealed: seal(sealKey, JSON.stringify(result.body ?? null)), completed_at: db.fn.now(),
  });
}

async function replay(db: Knex, sealKey: Buffer, slot: Slot): Promise<RouteResult> {
  const row = await db('idempotency_keys').where({ account_id: slot.accountId, route: slot.route, key: slot.key }).first();
  if (row && row.request_hash !== slot.requestHash) {
    throw new ApiError(409, 'idempotency_key_reused', 'this Idempotency-Key was used with a different request');
  }
  if (!row || row.state !== 'completed') {
    throw new ApiError(409, 'idempotency_request_in_progress', 'a request with this slot is in progress', { retryAfterSeconds: 1 });
  }
  const body = row.response_body_sealed === null ? null : JSON.parse(open(sealKey, row.response_body_sealed));
  return { status: row.response_status ?? 200, body, headers: { ...row.response_headers, 'Idempotent-Replayed': 'true' } };
}
