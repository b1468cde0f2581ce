import type { AppDeps } from '../deps';
import type { Knex } from '../db/knex';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import { SYSTEM_ACCOUNT } from '../temporal/searchAttributes';
import { endpointService } from '../webhookKit/endpointService';
import { newWebhookSecret } from '../webhookKit/signing';
import type { AlertEventDeliveryInput, JobClosedInput } from '../../workflows/alertEventDelivery.contract';
import { startAlertDelivery, type DispatchDeps } from './dispatch';
import { ALERT_TEST_EVENT_TYPE, type AlertEventType } from './events';
import { jobEventData } from './jobEvent';
import { unfinishedAccounts } from './sweepEvent';
import { sealAlertSecret } from './secretBox';
import * as store from './store';
import type { DeliveryRow } from './store';

export type { DispatchDeps } from './dispatch';
export { ALERT_EVENT_TYPES, ALERT_TEST_EVENT_TYPE, type AlertEventType } from './events';
// Steps of the delivery workflow (activities/alerts.ts), as stored.
export { attemptContext, claimEvent, endpointIdIfExists, pendingDeliveries, recordAttempt, subscribedEndpointIds } from './store';

const registry = endpointService<DispatchDeps>({
  store: store.endpoints,
  sealSecret: sealAlertSecret,
  testEvent: { type: ALERT_TEST_EVENT_TYPE, message: 'A test event from Workyard: your endpoint receives signed alerts.' },
  insertEvent: store.insertEvent,
  // A failed start answers 503; the relay still delivers the recorded event.
  startDelivery: startAlertDelivery,
});

/** The account's webhook endpoints (webhookKit's registry over the alert tables). */
export const { createEndpoint, listEndpoints, getEndpoint, updateEndpoint, deleteEndpoint, listEndpointDeliveries, sendTestEvent } =
  registry;

/** The account's deliveries to job `callback_url`s, newest first. */
export function listCallbackDeliveries(db: Knex, accountId: string, page: Page): Promise<{ rows: DeliveryRow[]; total: number }> {
  return store.endpoints.listDeliveries(db, accountId, null, page);
}

/**
 * Records an alert for the account's subscribed endpoints, in `db` (a caller's transaction works), for the relay to
 * hand to its delivery workflow: for callers without a Temporal client (activities, stores' callers). An event no
 * enabled endpoint takes is not recorded (answers null): an endpoint receives the events after it subscribed.
 */
export async function recordAlert(
  db: Knex,
  accountId: string,
  type: AlertEventType,
  data: Record<string, unknown>,
  /** What the event is about: recorded once per account, type and key (a retried activity records nothing twice). */
  sourceKey?: string,
): Promise<string | null> {
  if (!isUuid(accountId) || !(await store.hasSubscriber(db, accountId, type))) return null;
  return (await store.insertEvent(db, accountId, { type, data, sourceKey })).id;
}

/**
 * An urgent inbox item was just raised (not a dedup hit): `inbox.urgent`, in the caller's transaction. The item's
 * body stays out (it can carry error texts and customer ids): the event names the item, `GET /api/inbox` shows it.
 */
export function alertUrgentInboxItem(
  db: Knex,
  accountId: string,
  item: { id: string; kind: string; urgency: string; title: string; created_at: Date },
): Promise<string | null> {
  const json = { id: item.id, kind: item.kind, urgency: item.urgency, title: item.title, created_at: item.created_at.toISOString() };
  return recordAlert(db, accountId, 'inbox.urgent', { item: json }, `inbox:${item.id}`);
}

/**
 * Records an alert and starts its delivery workflow (`alert-event:<eventId>`), best effort: a failed start is logged
 * and left to the relay. Answers the event id (null when no endpoint takes the type).
 */
export async function emitAlert(
  deps: DispatchDeps,
  accountId: string,
  type: AlertEventType,
  data: Record<string, unknown>,
  options: { retry?: AlertEventDeliveryInput['retry'] } = {},
): Promise<string | null> {
  const eventId = await recordAlert(deps.db, accountId, type, data);
  if (!eventId) return null;
  try {
    await startAlertDelivery(deps, accountId, eventId, 'alert-emit', options.retry);
  } catch (err) {
    deps.logger.warn({ accountId, type, error: (err as Error).name }, 'alert delivery workflow could not be started; the relay will');
  }
  return eventId;
}

/** Whether the account has a callback signing secret (job-starting routes refuse a `callback_url` without one). */
export async function hasCallbackSecret(db: Knex, accountId: string): Promise<boolean> {
  return isUuid(accountId) && (await store.callbackSecret(db, accountId)) !== undefined;
}

/**
 * A job closed (reported by the job events interceptor, or by the watcher of server-side closes: terminated and timed
 * out jobs are job.failed). A job of an account: records `job.completed` / `job.failed` when an endpoint takes it or the
 * job has a `callback_url` (signed with the account's callback secret, which the start route required; one is created
 * here for a job started otherwise, e.g. by an operator), when anyone receives it. A partial sweep: its `sweep.partial` events. Answers the event ids.
 */
export async function recordJobClosed(deps: { db: Knex; secretHashKey: string }, input: JobClosedInput): Promise<string[]> {
  if (input.accountId === SYSTEM_ACCOUNT) return recordSweepPartial(deps.db, input);
  if (!isUuid(input.accountId)) return [];
  const type: AlertEventType = input.job.status === 'completed' ? 'job.completed' : 'job.failed';
  const callbackUrl = input.callbackUrl && (await store.accountExists(deps.db, input.accountId)) ? input.callbackUrl : null;
  if (!callbackUrl && !(await store.hasSubscriber(deps.db, input.accountId, type))) return [];
  if (callbackUrl) await store.ensureCallbackSecret(deps.db, input.accountId, sealAlertSecret(deps.secretHashKey, newWebhookSecret()));
  const event = await store.insertEvent(deps.db, input.accountId, {
    type,
    data: jobEventData(input),
    callbackUrl,
    sourceKey: `job:${input.job.run_id}`,
  });
  return [event.id];
}

/**
 * A sweep completed partial: one `sweep.partial` event per account it names as left unfinished (see
 * `unfinishedAccounts`), for the accounts with an endpoint that takes it. Answers the event ids.
 */
async function recordSweepPartial(db: Knex, input: JobClosedInput): Promise<string[]> {
  const ids: string[] = [];
  for (const [accountId, unfinished] of unfinishedAccounts(input.result)) {
    const sweep = { id: input.job.id, kind: input.job.kind, run_id: input.job.run_id, closed_at: input.job.closed_at };
    const id = await recordAlert(db, accountId, 'sweep.partial', { sweep, unfinished }, `sweep:${input.job.run_id}`);
    if (id) ids.push(id);
  }
  return ids;
}

/**
 * A new callback signing secret for the account (the old one stops signing at once), shown only in this answer. The
 * account's first job with a `callback_url` creates one nobody has seen: rotate to learn it.
 */
export async function rotateCallbackSecret(deps: Pick<AppDeps, 'db' | 'secretHashKey'>, accountId: string): Promise<string> {
  const secret = newWebhookSecret();
  await store.putCallbackSecret(deps.db, accountId, sealAlertSecret(deps.secretHashKey, secret));
  return secret;
}
