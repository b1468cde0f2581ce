import { TEST_EVENT_TYPE } from '../src/email/webhooks/events';
import { openWebhookSecret } from '../src/email/webhooks/secretBox';
import { attemptSignedDelivery } from '../src/webhookKit/attempt';
import * as webhooks from '../src/email/webhooks/service';
import type { AttemptInput, AttemptOutcome, PreparedDelivery } from '../workflows/emailEventDelivery.contract';
import type { ActivityDeps } from './deps';

/** The side effects of email event delivery: delivery rows and one signed POST per attempt. */
export function createEmailWebhookActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    /** Stamps the event dispatched and makes one delivery row per target endpoint; answers those still pending. */
    async prepareEmailEventDeliveries(input: { accountId: string; eventId: string }): Promise<PreparedDelivery[]> {
      const event = await webhooks.claimEvent(db, input.accountId, input.eventId);
      if (!event) return [];
      const target =
        event.type === TEST_EVENT_TYPE
          ? await webhooks.endpointIdIfExists(db, input.accountId, event.data.webhook_endpoint_id)
          : await webhooks.subscribedEndpointIds(db, input.accountId, event.type);
      const pending = await webhooks.pendingDeliveries(db, input.accountId, input.eventId, target);
      return pending.map((d) => ({ deliveryId: d.id, endpointId: d.endpoint_id }));
    },

    /** One signed POST to the endpoint, recorded on the delivery row (a retried activity never re-sends a settled delivery). */
    async attemptEmailWebhookDelivery(input: AttemptInput): Promise<AttemptOutcome & { attempts: number }> {
      const context = await webhooks.attemptContext(db, input.accountId, input.deliveryId);
      return attemptSignedDelivery(context, input.final, {
        openSecret: (envelope) => openWebhookSecret(deps.config.SECRET_HASH_KEY ?? '', envelope),
        record: (outcome) => webhooks.recordAttempt(db, input.accountId, input.deliveryId, outcome),
        timeoutMs: deps.config.EMAIL_WEBHOOK_TIMEOUT_MS,
        allowPrivateHosts: deps.config.FETCH_ALLOW_PRIVATE_HOSTS,
      });
    },

    async markEmailEventsDispatched(eventIds: string[]): Promise<void> {
      await webhooks.markEventsDispatched(db, eventIds);
    },
  };
}
