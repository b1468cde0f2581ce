import { ApiError } from '../src/http/errors';
import { getKey } from '../src/email/keys/service';
import { refundDailyQuota } from '../src/email/limits/dailyCap';
import { recordOutcomes, relayAll, type Delivery } from '../src/email/send/deliver';
import * as sending from '../src/email/send/service';
import { UsageRecorder } from '../src/email/usage/recorder';
import { insertEvents } from '../src/email/webhooks/service';
import type { BatchSliceInput, BatchSliceOutcome } from '../workflows/emailBatchDelivery.contract';
import type { ActivityDeps } from './deps';

const keyRevoked = () => new ApiError(401, 'api_key_revoked', 'the email API key was revoked before this message of its batch was sent');
const relayMissing = () => new ApiError(503, 'smtp_not_configured', 'the worker has no SMTP_URL: the message was not sent');

/** The side effects of a queued email batch: its message ids, and sending one slice of it. */
export function createEmailBatchActivities(deps: ActivityDeps) {
  const { db, config } = deps;
  return {
    async listQueuedEmailBatch(input: { accountId: string; batchId: string }): Promise<string[]> {
      return sending.queuedIds(db, input.accountId, input.batchId);
    },

    /**
     * Sends the slice's still-queued messages (a revoked key, or a worker without a relay, fails them instead), then
     * in one transaction marks them sent or failed, records their events and refunds the failed ones' daily cap.
     */
    async deliverEmailBatchSlice(input: BatchSliceInput): Promise<BatchSliceOutcome> {
      const [key, messages] = await Promise.all([
        getKey(db, input.accountId, input.keyId),
        sending.claimQueued(db, input.accountId, input.batchId, input.ids),
      ]);
      const revoked = !key || key.revoked_at !== null;
      const failAll = (error: ApiError) => messages.map((message): Delivery => ({ message, outcome: 'failed', error }));
      const deliveries = revoked
        ? failAll(keyRevoked())
        : !config.SMTP_URL
          ? failAll(relayMissing())
          : await relayAll(config.SMTP_URL, messages, () => null);
      const sent = deliveries.filter((d) => d.outcome === 'sent').length;
      const failed = deliveries.length - sent;
      const eventIds = await db.transaction(async (trx) => {
        const events = await recordOutcomes(trx, input.accountId, deliveries);
        if (input.quotaDay) await refundDailyQuota(trx, input.keyId, input.quotaDay, failed);
        return events.length > 0 ? (await insertEvents(trx, input.accountId, events)).map((e) => e.id) : [];
      });
      if (sent > 0) await countSends(input.keyId, input.accountId, sent);
      return { sent, failed, eventIds, keyRevoked: revoked };
    },
  };

  /** The key's usage (sends), as the API counts its own sends. */
  async function countSends(keyId: string, accountId: string, sends: number): Promise<void> {
    const usage = new UsageRecorder(db);
    usage.add(keyId, accountId, { sends });
    await usage.flush();
  }
}
