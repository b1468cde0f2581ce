import type { AuthContext } from '../../auth/types';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { countRateLimitRefusal } from '../../telemetry/metrics';
import { liveKeyOf } from '../keys/authenticate';
import type { LiveKey } from '../keys/liveKey';
import { emailRuntime } from '../keys/runtime';
import { utcDay } from '../usage/recorder';
import { batchDurationMs, batchHoldWait } from './batchHold';
import { refundDailyQuota, secondsUntilUtcMidnight, takeDailyQuota } from './dailyCap';
import { rateLimitHeaders, type KeyRateLimiter } from './rateLimiter';

/**
 * Admits `count` sends of the request's key (at most the replica's share), all or none: the per-second window of
 * this replica first (in memory; a key held by a queued batch on this replica admits nothing), then, for a live key
 * with a daily cap, the shared counter in Postgres (test keys use no quota). A refusal counts a rate-limit hit and
 * throws 429 `rate_limit_exceeded` or `daily_quota_exceeded` with Retry-After. Answers the rate-limit headers.
 */
export async function admitSends(
  deps: AppDeps,
  auth: AuthContext,
  count: number,
  now = new Date(),
): Promise<{ headers: Record<string, string>; quotaDay: string | null }> {
  const key = liveKeyOf(auth);
  const { limiter } = emailRuntime(deps);
  // Every send passes here: the database is asked only for a held key or a daily cap, and only then awaited.
  if (limiter.holdOf(key.id)) await refuseWhileHeld(deps, limiter, key);
  const admission = limiter.admit(key.id, key.ratePerSecond, count);
  if (!admission.admitted) throw rateLimited(key, admission, 'email_per_second');
  const charged = hasDailyCap(key) && (await takeQuota(deps, limiter, key, count, count, now));
  return { headers: rateLimitHeaders(admission), quotaDay: charged ? utcDay(now) : null };
}

/** Gives back what admitSends took when the sends were not accepted after all (their job did not start). */
export async function undoSends(deps: AppDeps, auth: AuthContext, count: number, quotaDay: string | null): Promise<void> {
  const key = liveKeyOf(auth);
  emailRuntime(deps).limiter.refund(key.id, count);
  if (quotaDay) await refundDailyQuota(deps.db, key.id, quotaDay, count);
}

export interface QueuedAdmission {
  headers: Record<string, string>;
  /** The replica's share of the key: the batch workflow sends this many per second. */
  perSecond: number;
  /** The UTC day the daily cap was charged on (refunds go there); null without a cap. */
  quotaDay: string | null;
}

/**
 * A live batch larger than the replica's share: takes the whole share now (the workflow's first second, all or
 * none), the daily cap for every message up front, then holds the key on this replica until the batch has settled
 * (batchHold.ts), so the key's total never exceeds its limit.
 */
export async function admitQueuedBatch(
  deps: AppDeps,
  auth: AuthContext,
  count: number,
  batchId: string,
  now = new Date(),
): Promise<QueuedAdmission> {
  const key = liveKeyOf(auth);
  const { limiter } = emailRuntime(deps);
  await refuseWhileHeld(deps, limiter, key);
  const perSecond = limiter.share(key.ratePerSecond);
  const admission = limiter.admit(key.id, key.ratePerSecond, perSecond);
  if (!admission.admitted) throw rateLimited(key, admission, 'email_per_second');
  const charged = await takeQuota(deps, limiter, key, count, perSecond, now);
  limiter.hold(key.id, { accountId: key.accountId, batchId, until: limiter.clock() + batchDurationMs(count, perSecond), checkAfter: 0 });
  return { headers: rateLimitHeaders(admission), perSecond, quotaDay: charged ? utcDay(now) : null };
}

/** Undoes admitQueuedBatch when the batch could not be queued after all (its workflow did not start). */
export async function cancelQueuedBatch(
  deps: AppDeps,
  auth: AuthContext,
  batchId: string,
  count: number,
  admitted: QueuedAdmission,
): Promise<void> {
  const key = liveKeyOf(auth);
  const { limiter } = emailRuntime(deps);
  limiter.release(key.id, batchId);
  limiter.refund(key.id, admitted.perSecond);
  if (admitted.quotaDay) await refundDailyQuota(deps.db, key.id, admitted.quotaDay, count);
}

/** The rate-limit headers of the key as they stand, without admitting anything. */
export function currentRateLimitHeaders(deps: AppDeps, auth: AuthContext): Record<string, string> {
  const key = liveKeyOf(auth);
  return rateLimitHeaders(emailRuntime(deps).limiter.status(key.id, key.ratePerSecond));
}

async function refuseWhileHeld(deps: AppDeps, limiter: KeyRateLimiter, key: LiveKey): Promise<void> {
  const waitMs = await batchHoldWait(deps, limiter, key);
  if (waitMs !== null)
    throw rateLimited(key, { limit: limiter.share(key.ratePerSecond), remaining: 0, retryAfterMs: waitMs }, 'email_batch_hold');
}

/**
 * Takes `count` from a live key's daily cap (answers whether a cap was charged); over it, gives back the
 * `admitted` window slots and throws 429 `daily_quota_exceeded`.
 */
async function takeQuota(
  deps: AppDeps,
  limiter: KeyRateLimiter,
  key: LiveKey,
  count: number,
  admitted: number,
  now: Date,
): Promise<boolean> {
  if (!hasDailyCap(key)) return false;
  if (await takeDailyQuota(deps.db, key.id, key.dailyCap, count, now)) return true;
  limiter.refund(key.id, admitted);
  key.usage.add(key.id, key.accountId, { rateLimited: 1 });
  countRateLimitRefusal('email_daily_cap');
  throw new ApiError(429, 'daily_quota_exceeded', `this key may send ${key.dailyCap} emails per UTC day`, {
    retryAfterSeconds: secondsUntilUtcMidnight(now),
    headers: rateLimitHeaders(limiter.status(key.id, key.ratePerSecond)),
  });
}

/** Test keys use no quota; a live key without a cap has none. */
const hasDailyCap = (key: LiveKey): key is LiveKey & { dailyCap: number } => key.environment === 'live' && key.dailyCap !== null;

function rateLimited(
  key: LiveKey,
  state: { limit: number; remaining: number; retryAfterMs: number },
  limiter: 'email_per_second' | 'email_batch_hold',
): ApiError {
  key.usage.add(key.id, key.accountId, { rateLimited: 1 });
  countRateLimitRefusal(limiter);
  return new ApiError(429, 'rate_limit_exceeded', `this key may send ${state.limit} emails per second`, {
    retryAfterSeconds: Math.max(1, Math.ceil(state.retryAfterMs / 1000)),
    headers: rateLimitHeaders({ limit: state.limit, remaining: state.remaining, resetMs: state.retryAfterMs }),
  });
}
