import * as sending from '../src/email/send/service';
import type { ActivityDeps } from './deps';

/** The side effect of a queued email batch beyond its delivery attempts (emailDelivery.ts): its message ids. */
export function createEmailBatchActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    async listQueuedEmailBatch(input: { accountId: string; batchId: string }): Promise<string[]> {
      return sending.queuedIds(db, input.accountId, input.batchId);
    },
  };
}
