import { createHash } from 'node:crypto';
import { deriveKey, open, seal } from '../crypto/aesGcm';
import type { Knex } from '../db/knex';
import { apiErrorFromBody, ApiError, errorBody, isErrorBody } from './errors';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyKeyRef,
} from './idempotencyStore';
import type { RouteResult } from './route';

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
  // Bytes (a validated attachment) as one base64 string, not an object walked byte by byte.
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether an outcome frees the key instead of being stored for replay. */
export type ReleaseRule = (status: number, code?: string) => boolean;
const releasesServerErrors: ReleaseRule = (status) => status >= 500;

const sealKeys = new Map<string, Buffer>();
function sealKeyOf(secretHashKey: string): Buffer {
  let key = sealKeys.get(secretHashKey);
  if (!key) sealKeys.set(secretHashKey, (key = deriveKey(secretHashKey, 'idempotency-responses')));
  return key;
}

/**
 * Runs `handler` at most once per (account, route, key) within 24 hours.
 * - First request claims the key (an insert, so two concurrent requests cannot both claim it).
 * - A retry after completion replays the stored status, headers and body, with `Idempotent-Replayed: true`; a stored
 *   error is thrown again as that ApiError, so it is rendered with the replaying request's own request_id.
 * - A concurrent duplicate while the first is still running gets 409 `idempotency_request_in_progress`
 *   with `Retry-After: 1`; retrying then replays the finished response.
 * - The same key with a different request is 409 `idempotency_key_reused`.
 * - A 4xx outcome is stored and replayed; a 5xx releases the key so the client may retry (`releases` widens
 *   that: the outcomes after which nothing happened and the retry must run).
 * - Stored bodies are sealed with AES-256-GCM (they may hold a secret shown once); rows past 24 hours are
 *   purged by the `idempotency-key-purge` schedule, and a claim abandoned by a dead process is retaken after 10 minutes.
 */
export async function withIdempotency<A extends RouteResult>(
  db: Knex,
  secretHashKey: string,
  scope: IdempotencyScope,
  handler: () => Promise<A>,
  releases: ReleaseRule = releasesServerErrors,
): Promise<A & Pick<RouteResult, 'headers'>> {
  const claimed = await claimIdempotencyKey(db, scope, scope.requestHash);
  const sealKey = sealKeyOf(secretHashKey);
  // What is stored under the key is an answer `handler` gave (read back from its JSON).
  if (!claimed) return (await replay(db, sealKey, scope)) as A;

  const ref: IdempotencyKeyRef = { accountId: scope.accountId, route: scope.route, key: scope.key };
  let result: A;
  try {
    result = await handler();
  } catch (err) {
    if (err instanceof ApiError && !releases(err.status, err.code)) {
      await complete(db, sealKey, ref, { status: err.status, body: errorBody(err), headers: {} });
    } else {
      await releaseIdempotencyKey(db, ref);
    }
    throw err;
  }
  if (releases(result.status ?? 200)) await releaseIdempotencyKey(db, ref);
  else await complete(db, sealKey, ref, result);
  return result;
}

async function complete(db: Knex, sealKey: Buffer, ref: IdempotencyKeyRef, result: RouteResult): Promise<void> {
  await completeIdempotencyKey(db, ref, {
    status: result.status ?? 200,
    headers: result.headers ?? {},
    bodySealed: seal(sealKey, JSON.stringify(result.body ?? null)),
  });
}

async function replay(db: Knex, sealKey: Buffer, scope: IdempotencyScope): Promise<RouteResult> {
  const row = await findIdempotencyKey(db, scope);
  if (!row)
    throw new ApiError(409, 'idempotency_request_in_progress', 'a request with this Idempotency-Key is in progress', {
      retryAfterSeconds: 1,
    });
  if (row.request_hash !== scope.requestHash) {
    throw new ApiError(409, 'idempotency_key_reused', 'this Idempotency-Key was used with a different request');
  }
  if (row.state !== 'completed') {
    throw new ApiError(409, 'idempotency_request_in_progress', 'a request with this Idempotency-Key is in progress', {
      retryAfterSeconds: 1,
    });
  }
  const body: unknown = row.response_body_sealed === null ? null : JSON.parse(open(sealKey, row.response_body_sealed));
  const status = row.response_status ?? 200;
  const headers = { ...row.response_headers, 'Idempotent-Replayed': 'true' };
  // An error is answered again as that error, so its body carries this request's own request_id.
  if (status >= 400 && isErrorBody(body)) throw apiErrorFromBody(body, headers);
  return { status, body, headers };
}
