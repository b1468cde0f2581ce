import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { AccountIdKey, JobKindKey } from './searchAttributes';
import {
  DEFAULT_DELIVERY_RETRY,
  emailEventDeliveryContract,
  emailEventWorkflowId,
  type DeliveryRetryPolicy,
  type EmailEventDeliveryInput,
  type EmailEventDeliveryResult,
  type PreparedDelivery,
} from './emailEventDelivery.contract';
import { trackProgress } from './progress';
import { deliverWithRetries } from './webhookRetry';

const { prepareEmailEventDeliveries, markEmailEventsDispatched } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// The attempt's own deadline is EMAIL_WEBHOOK_TIMEOUT_MS (at most 60 s); a failing activity (database down) is
// retried briefly here, then counts as a failed attempt of the delivery loop below.
const { attemptEmailWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 },
});

type DeliveryResult = EmailEventDeliveryResult['deliveries'][number];

/**
 * Delivers one email event (`email-event:<eventId>`) to every enabled endpoint of the account subscribed to its
 * type (an `email.test` event: to the endpoint it names), each endpoint on its own retry loop: one activity per
 * attempt, exponential backoff between attempts, until delivered, refused for good, or out of time.
 */
export async function emailEventDelivery(input: EmailEventDeliveryInput): Promise<EmailEventDeliveryResult> {
  const policy: DeliveryRetryPolicy = { ...DEFAULT_DELIVERY_RETRY, ...input.retry };
  const progress = trackProgress('preparing');
  const deliveries = await prepareEmailEventDeliveries({ accountId: input.accountId, eventId: input.eventId });
  progress.phase('delivering', deliveries.length);
  const results = await Promise.all(
    deliveries.map(async (delivery) => {
      const result = await deliverOne(input.accountId, delivery, policy);
      progress.advance();
      return result;
    }),
  );
  return { event_id: input.eventId, deliveries: results };
}

async function deliverOne(accountId: string, delivery: PreparedDelivery, policy: DeliveryRetryPolicy): Promise<DeliveryResult> {
  const outcome = await deliverWithRetries(
    (final) => attemptEmailWebhookDelivery({ accountId, deliveryId: delivery.deliveryId, final }),
    policy,
  );
  return { delivery_id: delivery.deliveryId, endpoint_id: delivery.endpointId, ...outcome };
}

/**
 * Starts the delivery workflow of each event as an abandoned child (it outlives the caller), then stamps the
 * events dispatched. A run that exists already is left alone.
 */
export async function startEventDeliveries(
  events: Array<{ accountId: string; eventId: string }>,
): Promise<{ started: number; already_running: number }> {
  const counts = { started: 0, already_running: 0 };
  await Promise.all(
    events.map(async (event) => {
      try {
        await startChild(emailEventDelivery, {
          workflowId: emailEventWorkflowId(event.eventId),
          args: [{ accountId: event.accountId, eventId: event.eventId }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
          typedSearchAttributes: [
            { key: AccountIdKey, value: event.accountId },
            { key: JobKindKey, value: emailEventDeliveryContract.jobKind },
          ],
        });
        counts.started++;
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        counts.already_running++;
      }
    }),
  );
  await markEmailEventsDispatched(events.map((e) => e.eventId));
  return counts;
}
