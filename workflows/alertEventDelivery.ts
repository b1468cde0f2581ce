import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { type AlertEventDeliveryInput, type AlertEventDeliveryResult } from './alertEventDelivery.contract';
import { trackProgress } from './progress';
import { deliverWithRetries } from './webhookRetry';
import { DEFAULT_DELIVERY_RETRY, type DeliveryRetryPolicy } from './webhookRetryPolicy';

const { prepareAlertEventDeliveries } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// The attempt's own deadline is ALERT_WEBHOOK_TIMEOUT_MS (at most 60 s); a failing activity (database down) is
// retried briefly here, then counts as a failed attempt of the delivery loop.
const { attemptAlertWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 },
});

/**
 * Delivers one alert event (`alert-event:<eventId>`) to every enabled endpoint of the account subscribed to its type
 * (a test event: to the endpoint it names) and to its `callback_url` when it has one, each on its own retry loop —
 * the same loop, signing and backoff as the email webhooks.
 */
export async function alertEventDelivery(input: AlertEventDeliveryInput): Promise<AlertEventDeliveryResult> {
  const policy: DeliveryRetryPolicy = { ...DEFAULT_DELIVERY_RETRY, ...input.retry };
  const progress = trackProgress('preparing');
  const deliveries = await prepareAlertEventDeliveries({ accountId: input.accountId, eventId: input.eventId });
  progress.phase('delivering', deliveries.length);
  const results = await Promise.all(
    deliveries.map(async (delivery) => {
      const outcome = await deliverWithRetries(
        (final) => attemptAlertWebhookDelivery({ accountId: input.accountId, deliveryId: delivery.deliveryId, final }),
        policy,
      );
      progress.advance();
      return { delivery_id: delivery.deliveryId, endpoint_id: delivery.endpointId, ...outcome };
    }),
  );
  return { event_id: input.eventId, deliveries: results };
}
