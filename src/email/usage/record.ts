import type { AuthContext } from '../../auth/types';
import { liveKeyOf } from '../keys/authenticate';

/** Counts `count` sends of the request's key (in memory; written about once a second). */
export function recordSends(auth: AuthContext, count: number): void {
  const key = liveKeyOf(auth);
  key.usage.add(key.id, key.accountId, { sends: count });
}

export { flushUsage } from './flusher';
