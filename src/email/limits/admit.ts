import type { AuthContext } from '../../auth/types';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { liveKeyOf } from '../keys/authenticate';
import { emailRuntime } from '../keys/runtime';
import { secondsUntilUtcMidnight, takeDailyQuota } from './dailyCap';
import { rateLimitHeaders } from './rateLimiter';

/**
 * Admits `count` sends of the request's key, all or none: the per-second window of this replica first (in
 * memory), then, for a live key with a daily cap, the shared counter in Postgres (test keys use no quota). A
 * refusal counts a rate-limit hit and throws 429 `rate_limit_exceeded` or `daily_quota_exceeded` with Retry-After;
 * a batch larger than the replica's per-second share can never pass and is 400 `batch_exceeds_rate_limit`.
 * Answers the rate-limit headers for the response.
 */
export async function admitSends(deps: AppDeps, auth: AuthContext, count: number, now = new Date()): Promise<{ headers: Record<string, string> }> {
  const key = liveKeyOf(auth);
  const { limiter } = emailRuntime(deps);
  const admission = limiter.admit(key.id, key.ratePerSecond, count);
  if (!admission.admitted) {
    if (count > admission.limit) {
      throw new ApiError(400, 'batch_exceeds_rate_limit',
        `${count} messages exceed this key's per-second limit of ${admission.limit} on this replica; send fewer per request`);
    }
    key.usage.add(key.id, key.accountId, { rateLimited: 1 });
    const retryAfter = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
    throw new ApiError(429, 'rate_limit_exceeded', `this key may send ${admission.limit} emails per second`, {
      retryAfterSeconds: retryAfter,
      headers: rateLimitHeaders({ limit: admission.limit, remaining: admission.remaining, resetMs: admission.retryAfterMs }),
    });
  }
  const headers = rateLimitHeaders(admission);
  if (key.environment === 'live' && key.dailyCap !== null && !(await takeDailyQuota(deps.db, key.id, key.dailyCap, count, now))) {
    limiter.refund(key.id, count);
    key.usage.add(key.id, key.accountId, { rateLimited: 1 });
    throw new ApiError(429, 'daily_quota_exceeded', `this key may send ${key.dailyCap} emails per UTC day`, {
      retryAfterSeconds: secondsUntilUtcMidnight(now),
      headers: rateLimitHeaders(limiter.status(key.id, key.ratePerSecond)),
    });
  }
  return { headers };
}

/** The rate-limit headers of the key as they stand, without admitting anything. */
export function currentRateLimitHeaders(deps: AppDeps, auth: AuthContext): Record<string, string> {
  const key = liveKeyOf(auth);
  return rateLimitHeaders(emailRuntime(deps).limiter.status(key.id, key.ratePerSecond));
}
