import { createHash } from 'node:crypto';
import { deriveKey, open, seal } from '../crypto/aesGcm';
import type { Knex } from '../db/knex';
import { ApiError, errorBody } from './errors';
import type { RouteResult } from './route';

export const IDEMPOTENCY_TTL_HOURS = 24;
/** A claim still in progress after this long belongs to a request that died (longest synchronous route: 300 s). */
export const ABANDONED_CLAIM_MINUTES = 10;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyScope {
  accountId: string;
  /** Method and concrete path: the same key on two routes is two keys. */
  route: string;
  key: string;
  /** Hash of the validated request; the same key with another request is a conflict. */
  requestHash: string;
}

export function validIdempotencyKey(key: string): string {
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  return key;
}

/** Stable hash of a request: key order does not matter. */
export function requestHash(parts: unknown): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether an outcome frees the key instead of being stored for replay. */
export type ReleaseRule = (status: number, code?: string) => boolean;
const releasesServerErrors: ReleaseRule = (status) => status >= 500;

interface StoredRow { request_hash: string; state: string; response_status: number | null; response_headers: Record<string, string> | null; response_body_sealed: string | null }

const sealKeys = new Map<string, Buffer>();
function sealKeyOf(secretHashKey: string): Buffer {
  let key = sealKeys.get(secretHashKey);
  if (!key) sealKeys.set(secretHashKey, (key = deriveKey(secretHashKey, 'idempotency-responses')));
  return key;
}

/**
 * Runs `handler` at most once per (account, route, key) within 24 hours.
 * - First request claims the key (an insert, so two concurrent requests cannot both claim it).
 * - A retry after completion replays the stored status, headers and body, with `Idempotent-Replayed: true`.
 * - A concurrent duplicate while the first is still running gets 409 `idempotency_request_in_progress`
 *   with `Retry-After: 1`; retrying then replays the finished response.
 * - The same key with a different request is 409 `idempotency_key_reused`.
 * - A 4xx outcome is stored and replayed; a 5xx releases the key so the client may retry (`releases` widens
 *   that: the outcomes after which nothing happened and the retry must run).
 * - Stored bodies are sealed with AES-256-GCM (they may hold a secret shown once); rows past 24 hours are
 *   purged by the `idempotency-key-purge` schedule, and a claim abandoned by a dead process is retaken after 10 minutes.
 */
export async function withIdempotency(
  db: Knex, secretHashKey: string, scope: IdempotencyScope, handler: () => Promise<RouteResult>, releases: ReleaseRule = releasesServerErrors,
): Promise<RouteResult> {
  const claimed = await db.raw(
    `insert into idempotency_keys (account_id, route, key, request_hash, state)
     values (?, ?, ?, ?, 'in_progress')
     on conflict (account_id, route, key) do update
       set request_hash = excluded.request_hash, state = 'in_progress', response_status = null,
           response_headers = null, response_body_sealed = null, created_at = now(), completed_at = null
       where idempotency_keys.created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
          or (idempotency_keys.state = 'in_progress' and idempotency_keys.created_at < now() - interval '${ABANDONED_CLAIM_MINUTES} minutes')
     returning 1`,
    [scope.accountId, scope.route, scope.key, scope.requestHash],
  );
  const sealKey = sealKeyOf(secretHashKey);
  if (claimed.rows.length === 0) return replay(db, sealKey, scope);

  const where = { account_id: scope.accountId, route: scope.route, key: scope.key };
  let result: RouteResult;
  try {
    result = await handler();
  } catch (err) {
    if (err instanceof ApiError && !releases(err.status, err.code)) {
      await complete(db, sealKey, where, { status: err.status, body: errorBody(err), headers: {} });
    } else {
      await db('idempotency_keys').where(where).delete();
    }
    throw err;
  }
  if (releases(result.status ?? 200)) await db('idempotency_keys').where(where).delete();
  else await complete(db, sealKey, where, result);
  return result;
}

async function complete(db: Knex, sealKey: Buffer, where: object, result: RouteResult): Promise<void> {
  await db('idempotency_keys').where(where).update({
    state: 'completed',
    response_status: result.status ?? 200,
    response_headers: JSON.stringify(result.headers ?? {}),
    response_body_sealed: seal(sealKey, JSON.stringify(result.body ?? null)),
    completed_at: db.fn.now(),
  });
}

async function replay(db: Knex, sealKey: Buffer, scope: IdempotencyScope): Promise<RouteResult> {
  const row: StoredRow | undefined = await db('idempotency_keys')
    .where({ account_id: scope.accountId, route: scope.route, key: scope.key })
    .first();
  if (!row) throw new ApiError(409, 'idempotency_request_in_progress', 'a request with this Idempotency-Key is in progress', { retryAfterSeconds: 1 });
  if (row.request_hash !== scope.requestHash) {
    throw new ApiError(409, 'idempotency_key_reused', 'this Idempotency-Key was used with a different request');
  }
  if (row.state !== 'completed') {
    throw new ApiError(409, 'idempotency_request_in_progress', 'a request with this Idempotency-Key is in progress', { retryAfterSeconds: 1 });
  }
  const body = row.response_body_sealed === null ? null : JSON.parse(open(sealKey, row.response_body_sealed));
  return { status: row.response_status ?? 200, body, headers: { ...row.response_headers, 'Idempotent-Replayed': 'true' } };
}

/** Deletes stored responses past their 24 hours; returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Knex): Promise<number> {
  return db('idempotency_keys').where('created_at', '<', db.raw(`now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`)).delete();
}
