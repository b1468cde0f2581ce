import type { AppDeps } from '../deps';
import type { Knex } from '../db/knex';
import { ApiError } from '../http/errors';
import { invalidField } from '../http/fieldErrors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import { SYSTEM_ACCOUNT } from '../temporal/searchAttributes';
import { webhookUrlProblem } from '../webhookKit/endpointUrl';
import { newWebhookSecret } from '../webhookKit/signing';
import type { AlertEventDeliveryInput, JobClosedInput } from '../../workflows/alertEventDelivery.contract';
import { startAlertDelivery, type DispatchDeps } from './dispatch';
import { ALERT_TEST_EVENT_TYPE, type AlertEventType } from './events';
import { jobEventData } from './jobEvent';
import { unfinishedAccounts } from './sweepEvent';
import { sealAlertSecret } from './secretBox';
import * as store from './store';
import type { DeliveryRow, EndpointRow } from './store';

export type { DispatchDeps } from './dispatch';
export { ALERT_EVENT_TYPES, ALERT_TEST_EVENT_TYPE, type AlertEventType } from './events';
// Steps of the delivery workflow (activities/alerts.ts), as stored.
export { attemptContext, claimEvent, endpointIdIfExists, pendingDeliveries, recordAttempt, subscribedEndpointIds } from './store';

export const endpointNotFound = () => new ApiError(404, 'webhook_endpoint_not_found', 'webhook endpoint not found');

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string | null;
}

export interface EndpointPatch {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

function checkUrl(deps: Pick<AppDeps, 'config'>, url: string): void {
  const problem = webhookUrlProblem(url, deps.config.FETCH_ALLOW_PRIVATE_HOSTS);
  if (problem) throw invalidField('body.url', problem);
}

/** Creates an endpoint; its signing secret is returned here once and stored only sealed. */
export async function createEndpoint(
  deps: Pick<AppDeps, 'db' | 'config' | 'secretHashKey'>,
  accountId: string,
  input: EndpointInput,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  checkUrl(deps, input.url);
  const secret = newWebhookSecret();
  const endpoint = await store.insertEndpoint(deps.db, accountId, {
    url: input.url,
    events: input.events,
    description: input.description ?? null,
    secretEnc: sealAlertSecret(deps.secretHashKey, secret),
  });
  return { endpoint, secret };
}

export function listEndpoints(db: Knex, accountId: string, page: Page) {
  return store.listEndpoints(db, accountId, page);
}

export async function getEndpoint(db: Knex, accountId: string, id: string): Promise<EndpointRow> {
  const row = isUuid(id) ? await store.findEndpoint(db, accountId, id) : undefined;
  if (!row) throw endpointNotFound();
  return row;
}

export async function updateEndpoint(
  deps: Pick<AppDeps, 'db' | 'config'>,
  accountId: string,
  id: string,
  patch: EndpointPatch,
): Promise<EndpointRow> {
  if (patch.url !== undefined) checkUrl(deps, patch.url);
  const row = isUuid(id) ? await store.updateEndpoint(deps.db, accountId, id, patch) : undefined;
  if (!row) throw endpointNotFound();
  return row;
}

/** Deleting an endpoint deletes its delivery records; retries in progress stop at their next attempt. */
export async function deleteEndpoint(db: Knex, accountId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await store.deleteEndpoint(db, accountId, id))) throw endpointNotFound();
}

export async function listEndpointDeliveries(
  db: Knex,
  accountId: string,
  id: string,
  page: Page,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  await getEndpoint(db, accountId, id);
  return store.listDeliveries(db, accountId, id, page);
}

/** The account's deliveries to job `callback_url`s, newest first. */
export function listCallbackDeliveries(db: Knex, accountId: string, page: Page): Promise<{ rows: DeliveryRow[]; total: number }> {
  return store.listDeliveries(db, accountId, null, page);
}

/**
 * Sends a signed test event to this one endpoint now, through the delivery workflow (same signing and retries as
 * real events). An endpoint that is disabled receives nothing, so it is refused.
 */
export async function sendTestEvent(
  deps: DispatchDeps,
  accountId: string,
  id: string,
  requestId: string,
): Promise<{ eventId: string; jobId: string }> {
  const endpoint = await getEndpoint(deps.db, accountId, id);
  if (!endpoint.enabled)
    throw new ApiError(409, 'webhook_endpoint_disabled', 'the webhook endpoint is disabled; enable it to send a test event');
  const event = await store.insertEvent(deps.db, accountId, {
    type: ALERT_TEST_EVENT_TYPE,
    data: { webhook_endpoint_id: endpoint.id, message: 'A test event from Workyard: your endpoint receives signed alerts.' },
  });
  // A failed start answers 503; the event stays recorded and the relay still delivers it.
  const jobId = await startAlertDelivery(deps, accountId, event.id, requestId);
  return { eventId: event.id, jobId };
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

/**
 * A job closed (reported by the job events interceptor). A job of an account: records `job.completed` / `job.failed`
 * when an endpoint takes it or the job has a `callback_url` (then signed with the account's callback secret, created
 * on first use), when anyone receives it. A partial sweep: its `sweep.partial` events. Answers the event ids.
 */
export async function recordJobClosed(deps: { db: Knex; secretHashKey: string }, input: JobClosedInput): Promise<string[]> {
  if (input.accountId === SYSTEM_ACCOUNT) return recordSweepPartial(deps.db, input);
  if (!isUuid(input.accountId)) return [];
  const type: AlertEventType = input.job.status === 'failed' ? 'job.failed' : 'job.completed';
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
