import type { Knex } from '../db/knex';

export const IDEMPOTENCY_TTL_HOURS = 24;
/** A claim still in progress after this long belongs to a request that died (longest synchronous route: 300 s). */
export const ABANDONED_CLAIM_MINUTES = 10;

/** One stored key: its account, method and path, and the key itself. */
export interface IdempotencyKeyRef {
  accountId: string;
  route: string;
  key: string;
}

export interface StoredIdempotencyRow {
  request_hash: string;
  state: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body_sealed: string | null;
}

const whereOf = (ref: IdempotencyKeyRef) => ({ account_id: ref.accountId, route: ref.route, key: ref.key });

/**
 * Claims the key for a request with `requestHash` (an insert, so two concurrent requests cannot both claim it); a
 * row past its 24 hours, or a claim abandoned for 10 minutes, is taken over. False when another request holds it.
 */
export async function claimIdempotencyKey(db: Knex, ref: IdempotencyKeyRef, requestHash: string): Promise<boolean> {
  const claimed = await db.raw(
    `insert into idempotency_keys (account_id, route, key, request_hash, state)
     values (?, ?, ?, ?, 'in_progress')
     on conflict (account_id, route, key) do update
       set request_hash = excluded.request_hash, state = 'in_progress', response_status = null,
           response_headers = null, response_body_sealed = null, created_at = now(), completed_at = null
       where idempotency_keys.created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
          or (idempotency_keys.state = 'in_progress' and idempotency_keys.created_at < now() - interval '${ABANDONED_CLAIM_MINUTES} minutes')
     returning 1`,
    [ref.accountId, ref.route, ref.key, requestHash],
  );
  return claimed.rows.length > 0;
}

/** Frees the key, so a retry runs the request again. */
export async function releaseIdempotencyKey(db: Knex, ref: IdempotencyKeyRef): Promise<void> {
  await db('idempotency_keys').where(whereOf(ref)).delete();
}

/** Stores the finished response (its body sealed by the caller) for replay. */
export async function completeIdempotencyKey(
  db: Knex,
  ref: IdempotencyKeyRef,
  response: { status: number; headers: Record<string, string>; bodySealed: string },
): Promise<void> {
  await db('idempotency_keys')
    .where(whereOf(ref))
    .update({
      state: 'completed',
      response_status: response.status,
      response_headers: JSON.stringify(response.headers),
      response_body_sealed: response.bodySealed,
      completed_at: db.fn.now(),
    });
}

export async function findIdempotencyKey(db: Knex, ref: IdempotencyKeyRef): Promise<StoredIdempotencyRow | undefined> {
  return db('idempotency_keys').where(whereOf(ref)).first();
}

/** Deletes stored responses past their 24 hours; returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Knex): Promise<number> {
  return db('idempotency_keys')
    .where('created_at', '<', db.raw(`now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`))
    .delete();
}
