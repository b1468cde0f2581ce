import * as alerts from '../src/alerts/service';
import { openAlertSecret } from '../src/alerts/secretBox';
import { attemptSignedDelivery } from '../src/webhookKit/attempt';
import { recordJobRunClosed } from '../src/jobs/jobIndexWrites';
import type { JobClosedInput } from '../workflows/alertEventDelivery.contract';
import type { AttemptInput, AttemptOutcome } from '../workflows/webhookRetryPolicy';
import type { ActivityDeps } from './deps';

/** The side effects of account alerts: job-closed events, delivery rows, one signed POST per attempt. */
export function createAlertActivities(deps: ActivityDeps) {
  const { db } = deps;
  const secretHashKey = deps.config.SECRET_HASH_KEY ?? '';
  return {
    /**
     * A job closed (the job events interceptor): its close in the job index, and its job.completed / job.failed event,
     * or a partial sweep's sweep.partial events.
     */
    async recordJobClosed(input: JobClosedInput): Promise<{ eventIds: string[] }> {
      await recordJobRunClosed(db, input);
      return { eventIds: await alerts.recordJobClosed({ db, secretHashKey }, input) };
    },

    /** Stamps the event dispatched and makes one delivery row per target (endpoints, callback); answers those still pending. */
    async prepareAlertEventDeliveries(input: {
      accountId: string;
      eventId: string;
    }): Promise<Array<{ deliveryId: string; endpointId: string | null }>> {
      const event = await alerts.claimEvent(db, input.accountId, input.eventId);
      if (!event) return [];
      const target =
        event.type === alerts.ALERT_TEST_EVENT_TYPE
          ? await alerts.endpointIdIfExists(db, input.accountId, event.data.webhook_endpoint_id)
          : await alerts.subscribedEndpointIds(db, input.accountId, event.type);
      const pending = await alerts.pendingDeliveries(db, input.accountId, input.eventId, target, Boolean(event.callback_url));
      return pending.map((d) => ({ deliveryId: d.id, endpointId: d.endpoint_id }));
    },

    /** One signed POST to the endpoint or callback URL, recorded on the delivery row (a settled delivery is never re-sent). */
    async attemptAlertWebhookDelivery(input: AttemptInput): Promise<AttemptOutcome & { attempts: number }> {
      const context = await alerts.attemptContext(db, input.accountId, input.deliveryId);
      return attemptSignedDelivery(context, input.final, {
        openSecret: (envelope) => openAlertSecret(secretHashKey, envelope),
        record: (outcome) => alerts.recordAttempt(db, input.accountId, input.deliveryId, outcome),
        timeoutMs: deps.config.ALERT_WEBHOOK_TIMEOUT_MS,
        allowPrivateHosts: deps.config.FETCH_ALLOW_PRIVATE_HOSTS,
      });
    },
  };
}
