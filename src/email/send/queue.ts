import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { startJob } from '../../temporal/jobs';
import { emailBatchDeliveryContract } from '../../../workflows/emailBatchDelivery.contract';
import { assertKeyActive, type EmailKeyAuth } from '../keys/authenticate';
import { admitQueuedBatch, cancelQueuedBatch } from '../limits/admit';
import { deliveryRetry, queuedItems } from './enqueue';
import type { PreparedMessage } from './prepare';
import * as queue from './queueStore';

export interface QueuedBatch {
  batchId: string;
  jobId: string;
  headers: Record<string, string>;
}

/**
 * A live batch: admitted (the replica's share now, the daily cap for every message), its messages stored `queued`
 * in order, and one workflow (`email-batch:<account>:<batchId>`) started to send them at the key's rate. When the
 * workflow cannot start, everything is undone and the request fails (503).
 */
export async function queueBatch(deps: AppDeps, auth: EmailKeyAuth, messages: PreparedMessage[], requestId: string): Promise<QueuedBatch> {
  const batchId = randomUUID();
  const admitted = await admitQueuedBatch(deps, auth, messages.length, batchId);
  const retry = deliveryRetry(deps.config);
  try {
    assertKeyActive(auth);
    await queue.insertQueued(deps.db, auth.accountId, auth.keyId, queuedItems(messages, retry, admitted.quotaDay, batchId));
    const input = {
      accountId: auth.accountId,
      keyId: auth.keyId,
      batchId,
      perSecond: admitted.perSecond,
      quotaDay: admitted.quotaDay,
      retry,
    };
    const { id } = await startJob(deps.temporal, deps.metrics, emailBatchDeliveryContract, {
      accountId: auth.accountId,
      key: batchId,
      args: [input],
      requestId,
    });
    return { batchId, jobId: id, headers: admitted.headers };
  } catch (err) {
    await queue.deleteQueued(
      deps.db,
      auth.accountId,
      messages.map((m) => m.id),
    );
    await cancelQueuedBatch(deps, auth, batchId, messages.length, admitted);
    throw err;
  }
}
