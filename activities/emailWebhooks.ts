import { postWebhook } from '../src/email/webhooks/deliver';
import { eventBody, TEST_EVENT_TYPE } from '../src/email/webhooks/events';
import { openWebhookSecret } from '../src/email/webhooks/secretBox';
import { signedHeaders } from '../src/email/webhooks/signing';
import * as webhooks from '../src/email/webhooks/service';
import type { AttemptInput, AttemptOutcome, PreparedDelivery } from '../workflows/emailEventDelivery.contract';
import type { ActivityDeps } from './deps';

/** The side effects of email event delivery: delivery rows, one signed POST per attempt, the re-dispatch sweep's reads. */
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
      if (!context) return { status: 'gone', httpStatus: null, attempts: 0 };
      if (context.status !== 'pending') return { status: context.status, httpStatus: null, attempts: context.attempts };
      const record = async (
        status: 'pending' | 'delivered' | 'failed',
        httpStatus: number | null,
        error: string | null,
        counted = true,
      ) => {
        const attempts = await webhooks.recordAttempt(db, input.accountId, input.deliveryId, { status, httpStatus, error, counted });
        return { status: status === 'pending' ? ('retry' as const) : status, httpStatus, attempts };
      };
      if (!context.enabled) return record('failed', null, 'endpoint disabled', false);
      let secret: string;
      try {
        secret = openWebhookSecret(deps.config.SECRET_HASH_KEY ?? '', context.secret_enc);
      } catch {
        return record('failed', null, 'signing secret cannot be opened (SECRET_HASH_KEY changed?)', false);
      }
      const body = eventBody(context.event);
      const timestamp = Math.floor(Date.now() / 1000);
      const result = await postWebhook(context.url, body, signedHeaders(secret, context.event.id, timestamp, body), {
        timeoutMs: deps.config.EMAIL_WEBHOOK_TIMEOUT_MS,
        allowPrivateHosts: deps.config.FETCH_ALLOW_PRIVATE_HOSTS,
      });
      if (result.delivered) return record('delivered', result.httpStatus, null);
      return record(result.retryable && !input.final ? 'pending' : 'failed', result.httpStatus, result.error);
    },

    /** Events whose workflow never started (Temporal was down), for the re-dispatch sweep. */
    async listUndispatchedEmailEvents(input: { minAgeMs: number; limit: number }): Promise<Array<{ accountId: string; eventId: string }>> {
      const rows = await webhooks.undispatchedEvents(db, input.minAgeMs, input.limit);
      return rows.map((r) => ({ accountId: r.account_id, eventId: r.id }));
    },

    async markEmailEventsDispatched(eventIds: string[]): Promise<void> {
      await webhooks.markEventsDispatched(db, eventIds);
    },
  };
}
