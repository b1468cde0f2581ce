import { randomUUID } from 'node:crypto';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { releaseWriteLock, takeWriteLock } from './store';

/** One single-target write transaction may hold its target this long (doc2 Limits). */
export const LOCK_WINDOW_MS = 90_000;

export const writeLocked = (target: string) =>
  new ApiError(409, 'write_locked', `another write holds ${target}; nothing changed, safe to retry`);
export const writeUnconfirmed = (target: string) =>
  new ApiError(409, 'write_unconfirmed', `the write lock on ${target} expired while the write ran; re-read the target before retrying`);

/**
 * Runs `fn` holding the (account, target) lock: a Postgres row with an expiry, so a crashed holder frees it after
 * the window. Not acquired → 409 write_locked. When the window closed before `fn` finished, another writer may have
 * run too, so the outcome is reported as 409 write_unconfirmed whatever `fn` answered.
 */
export async function withTargetLock<T>(
  db: Knex,
  accountId: string,
  target: string,
  fn: () => Promise<T>,
  windowMs = LOCK_WINDOW_MS,
): Promise<T> {
  const holder = randomUUID();
  const expiresAt = await takeWriteLock(db, accountId, target, holder, windowMs);
  if (!expiresAt) throw writeLocked(target);
  const deadline = expiresAt.getTime();
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await fn() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  const released = await releaseWriteLock(db, accountId, target, holder);
  // Lost the row (taken over after expiry) or past the deadline: the write may have interleaved with another.
  if (!released || Date.now() > deadline) throw writeUnconfirmed(target);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
