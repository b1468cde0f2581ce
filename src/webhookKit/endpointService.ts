import type { AppDeps } from '../deps';
import type { Knex } from '../db/knex';
import { ApiError } from '../http/errors';
import { invalidField } from '../http/fieldErrors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import { webhookUrlProblem } from './endpointUrl';
import type { DeliveryRow, EndpointRow, EndpointStore } from './endpointStore';
import { newWebhookSecret } from './signing';

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

/** What one area's endpoint registry differs in. */
export interface EndpointRegistry<DispatchDeps extends { db: Knex }> {
  store: Pick<EndpointStore, 'insertEndpoint' | 'listEndpoints' | 'findEndpoint' | 'updateEndpoint' | 'deleteEndpoint' | 'listDeliveries'>;
  /** Seals a signing secret with the area's secret box. */
  sealSecret(secretHashKey: string, secret: string): string;
  /** The event `POST …/{id}/test` sends; nobody subscribes to its type. */
  testEvent: { type: string; message: string };
  /** Records one event in the area's outbox. */
  insertEvent(db: Knex, accountId: string, event: { type: string; data: Record<string, unknown> }): Promise<{ id: string }>;
  /** Starts the event's delivery workflow and answers its id; a failed start throws (the event stays recorded). */
  startDelivery(deps: DispatchDeps, accountId: string, eventId: string, requestId: string): Promise<string>;
}

function checkUrl(deps: Pick<AppDeps, 'config'>, url: string): void {
  const problem = webhookUrlProblem(url, deps.config.FETCH_ALLOW_PRIVATE_HOSTS);
  if (problem) throw invalidField('body.url', problem);
}

/** The endpoint CRUD, deliveries and test event of an area's webhook endpoints. */
export function endpointService<DispatchDeps extends { db: Knex }>(registry: EndpointRegistry<DispatchDeps>) {
  const { store } = registry;

  async function getEndpoint(db: Knex, accountId: string, id: string): Promise<EndpointRow> {
    const row = isUuid(id) ? await store.findEndpoint(db, accountId, id) : undefined;
    if (!row) throw endpointNotFound();
    return row;
  }

  return {
    /** Creates an endpoint; its signing secret is returned here once and stored only sealed. */
    async createEndpoint(
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
        secretEnc: registry.sealSecret(deps.secretHashKey, secret),
      });
      return { endpoint, secret };
    },

    listEndpoints(db: Knex, accountId: string, page: Page): Promise<{ rows: EndpointRow[]; total: number }> {
      return store.listEndpoints(db, accountId, page);
    },

    getEndpoint,

    async updateEndpoint(deps: Pick<AppDeps, 'db' | 'config'>, accountId: string, id: string, patch: EndpointPatch): Promise<EndpointRow> {
      if (patch.url !== undefined) checkUrl(deps, patch.url);
      const row = isUuid(id) ? await store.updateEndpoint(deps.db, accountId, id, patch) : undefined;
      if (!row) throw endpointNotFound();
      return row;
    },

    /** Deleting an endpoint deletes its delivery records; retries in progress stop at their next attempt. */
    async deleteEndpoint(db: Knex, accountId: string, id: string): Promise<void> {
      if (!isUuid(id) || !(await store.deleteEndpoint(db, accountId, id))) throw endpointNotFound();
    },

    async listEndpointDeliveries(db: Knex, accountId: string, id: string, page: Page): Promise<{ rows: DeliveryRow[]; total: number }> {
      await getEndpoint(db, accountId, id);
      return store.listDeliveries(db, accountId, id, page);
    },

    /**
     * Sends a signed test event to this one endpoint now, through the delivery workflow (same signing and retries as
     * real events). An endpoint that is disabled receives nothing, so it is refused.
     */
    async sendTestEvent(deps: DispatchDeps, accountId: string, id: string, requestId: string): Promise<{ eventId: string; jobId: string }> {
      const endpoint = await getEndpoint(deps.db, accountId, id);
      if (!endpoint.enabled)
        throw new ApiError(409, 'webhook_endpoint_disabled', 'the webhook endpoint is disabled; enable it to send a test event');
      const event = await registry.insertEvent(deps.db, accountId, {
        type: registry.testEvent.type,
        data: { webhook_endpoint_id: endpoint.id, message: registry.testEvent.message },
      });
      // A failed start answers 503; the event stays recorded and the area's relay or sweep still delivers it.
      const jobId = await registry.startDelivery(deps, accountId, event.id, requestId);
      return { eventId: event.id, jobId };
    },
  };
}
