import type { TemporalDeps } from '../../deps';
import type { Logger } from '../../logger';
import { ApiError } from '../../http/errors';
import { jobSearchAttributes } from '../../temporal/jobs';
import { withTemporal } from '../../temporal/rpc';
import {
  COMMERCE_SHOP_JOB_KIND, COMMERCE_SHOP_WORKFLOW, commerceShopWorkflowId, deliverySignal, type CommerceDelivery, type CommerceShopInput,
} from '../../../workflows/commerceMessages';

/** Bound of the signal-with-start a delivery's 200 waits for. */
export const HANDOFF_DEADLINE_MS = 5_000;

/**
 * Hands a recorded delivery to its shop's entity workflow: signal-with-start on `commerce-shop:<connectionId>`
 * (search attributes AccountId, JobKind `commerce-shop`, ConnectionId). The run opens when the shop has none.
 * Unreachable or slow Temporal is 503 `temporal_unavailable`; any other refusal 503 `webhook_handoff_failed`:
 * both make the platform retry the delivery.
 */
export async function handOffDelivery(temporal: TemporalDeps, logger: Logger, target: { accountId: string; connectionId: string }, delivery: CommerceDelivery): Promise<void> {
  const { client } = temporal;
  const input: CommerceShopInput = { accountId: target.accountId, connectionId: target.connectionId };
  try {
    await withTemporal(client, () => client.workflow.signalWithStart(COMMERCE_SHOP_WORKFLOW, {
      workflowId: commerceShopWorkflowId(target.connectionId),
      taskQueue: temporal.taskQueue,
      args: [input],
      signal: deliverySignal,
      signalArgs: [delivery],
      typedSearchAttributes: jobSearchAttributes(COMMERCE_SHOP_JOB_KIND, target.accountId, { ConnectionId: target.connectionId }),
    }), HANDOFF_DEADLINE_MS);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // Name and message only: the error may not echo the delivery, but nothing of the body is logged either way.
    logger.warn({ connectionId: target.connectionId, topic: delivery.topic, error: (err as Error).name, reason: (err as Error).message }, 'commerce delivery hand-off failed');
    throw new ApiError(503, 'webhook_handoff_failed', 'the delivery could not be handed to its workflow; retry it', { retryAfterSeconds: 5 });
  }
}
