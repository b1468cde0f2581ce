import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { PurgeIdempotencyKeysResult } from './purgeIdempotencyKeys.contract';

const { purgeExpiredIdempotencyKeys } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 5 },
});

/** The `idempotency-key-purge` sweep: stored idempotent responses are kept 24 hours, then deleted. */
export async function purgeIdempotencyKeys(): Promise<PurgeIdempotencyKeysResult> {
  return { deleted: await purgeExpiredIdempotencyKeys() };
}
