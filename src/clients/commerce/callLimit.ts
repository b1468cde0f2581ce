import type { CallLimit } from './types';

/** The bucket leaks this many calls per second (the platform's REST Admin API default). */
export const LEAK_PER_SECOND = 2;

/** `X-Commerce-Shop-Api-Call-Limit: 32/40` → { used: 32, limit: 40 }; null when absent or malformed. */
export function parseCallLimit(header: string | string[] | undefined, now = Date.now()): CallLimit | null {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value) : null;
  if (!match) return null;
  const used = Number(match[1]);
  const limit = Number(match[2]);
  return limit > 0 ? { used, limit, at: now } : null;
}

/**
 * How long to wait before the next call so it does not overflow the bucket: the last report, leaked since, must
 * leave room for one more call plus one of headroom (other workers share the bucket). 0 when there is room.
 */
export function throttleDelayMs(last: CallLimit | undefined, now = Date.now()): number {
  if (!last) return 0;
  const usedNow = last.used - ((now - last.at) / 1000) * LEAK_PER_SECOND;
  const over = usedNow - (last.limit - 2);
  return over > 0 ? Math.ceil((over / LEAK_PER_SECOND) * 1000) : 0;
}
