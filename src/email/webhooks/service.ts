import type { AppDeps } from '../../deps';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { invalidField } from '../../http/fieldErrors';
import { isUuid } from '../../http/ids';
import type { Page } from '../../http/pagination';
import type { EmailEventDeliveryInput } from '../../../workflows/emailEventDelivery.contract';
import { committed } from '../../webhookKit/committed';
import { dispatchEvents, startEventDelivery, type DispatchDeps } from './dispatch';
import { webhookUrlProblem } from '../../webhookKit/endpointUrl';
import { TEST_EVENT_TYPE, type EmailEventInput } from './events';
import { sealWebhookSecret } from './secretBox';
import { newWebhookSecret } from '../../webhookKit/signing';
import * as store from './store';
import type { DeliveryRow, EndpointRow } from './store';

export type { EmailEventInput, EmailEventType } from './events';
export { EMAIL_EVENT_TYPES } from './events';
// Steps of the delivery and redispatch workflows (activities/emailWebhooks.ts, activities/emailBatches.ts), as stored.
export {
  attemptContext,
  claimEvent,
  endpointIdIfExists,
  insertEvents,
  markEventsDispatched,
  pendingDeliveries,
  recordAttempt,
  subscribedEndpointIds,
  undispatchedEvents,
} from './store';

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
    secretEnc: sealWebhookSecret(deps.secretHashKey, secret),
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

/**
 * Sends a signed `email.test` event to this one endpoint now, through the delivery workflow (same signing and
 * retries as real events). An endpoint that is disabled receives nothing, so it is refused.
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
  const [event] = await store.insertEvents(deps.db, accountId, [
    {
      type: TEST_EVENT_TYPE,
      data: { webhook_endpoint_id: endpoint.id, message: 'A test event from Workyard: your endpoint receives signed events.' },
    },
  ]);
  // A failed start answers 503; the event stays recorded and the re-dispatch sweep still delivers it.
  const jobId = await startEventDelivery(deps, accountId, event.id, requestId);
  return { eventId: event.id, jobId };
}

export interface EmittedEvents {
  ids: string[];
  /** Settles (never rejects) once every workflow start was tried; tests wait on it, callers need not. */
  dispatched: Promise<void>;
}

/**
 * Records email events (in the caller's transaction when `trx` is given) and, once that commits, starts one
 * delivery workflow per event (`email-event:<eventId>`), best effort: the caller never waits on Temporal, and an
 * event whose workflow could not start is handed over by the re-dispatch sweep within about two minutes.
 */
export function emitEmailEvents(
  deps: DispatchDeps,
  accountId: string,
  events: EmailEventInput[],
  trx?: Knex.Transaction,
): Promise<EmittedEvents> {
  return emitEvents(deps, accountId, events, { trx });
}

/** `emitEmailEvents` with the delivery workflow's retry policy overridden (tests use millisecond backoff). */
export async function emitEvents(
  deps: DispatchDeps,
  accountId: string,
  events: EmailEventInput[],
  options: { trx?: Knex.Transaction; retry?: EmailEventDeliveryInput['retry'] } = {},
): Promise<EmittedEvents> {
  if (events.length === 0) return { ids: [], dispatched: Promise.resolve() };
  const stored = await store.insertEvents(options.trx ?? deps.db, accountId, events);
  const ids = stored.map((e) => e.id);
  const ready = options.trx ? committed(options.trx) : Promise.resolve(true);
  const dispatched = ready.then((ok) => (ok ? dispatchEvents(deps, accountId, ids, options.retry) : undefined)).catch(() => undefined);
  return { ids, dispatched };
}
