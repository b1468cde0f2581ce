import type { AppDeps } from '../../deps';
import type { LiveKey } from '../keys/liveKey';
import { batchSettled } from '../send/store';
import type { KeyRateLimiter } from './rateLimiter';
import { WINDOW_MS } from './slidingWindow';

/** How often a held key may ask the database whether its batch is done. */
const CHECK_EVERY_MS = 250;

/**
 * Why a key's total never exceeds its limit while a queued batch is sent: the replica that accepted the batch
 * gives its whole share of the key to the batch's workflow (which sends one share per second) and admits nothing
 * else of the key until the batch has settled — no message of it still queued and none sent within the last
 * second. Other replicas keep their own shares, as always. Answers how long to wait (ms), or null when free.
 */
export async function batchHoldWait(deps: AppDeps, limiter: KeyRateLimiter, key: LiveKey): Promise<number | null> {
  const hold = limiter.holdOf(key.id);
  if (!hold) return null;
  const now = limiter.clock();
  if (now < hold.until) return hold.until - now;
  if (now < hold.checkAfter) return WINDOW_MS;
  hold.checkAfter = now + CHECK_EVERY_MS;
  if (!(await batchSettled(deps.db, hold.accountId, hold.batchId))) return WINDOW_MS;
  limiter.release(key.id, hold.batchId);
  return null;
}

/** The earliest a batch of `count` sent `perSecond` a second (the first slice at once) can have settled. */
export function batchDurationMs(count: number, perSecond: number): number {
  return Math.ceil(count / perSecond) * WINDOW_MS;
}
