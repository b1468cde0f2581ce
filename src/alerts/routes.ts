import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import type { AuthSpec } from '../auth/types';
import { listEnvelope, listEnvelopeSchema } from '../http/pagination';
import type { RouteDef } from '../http/route';
import { route } from '../http/route';
import { endpointRoutes } from '../webhookKit/endpointRoutes';
import { deliverySchema, pagedQuery, toDeliveryJson } from '../webhookKit/endpointSchemas';
import * as docs from './docs';
import * as alerts from './service';

const tags = ['Webhook endpoints'];
const auth: AuthSpec = { kind: 'session', roles: ['owner', 'admin'] };

const callbackSecretSchema = z.object({
  object: z.literal('callback_secret'),
  secret: z.string().describe('The callback signing secret `whsec_<base64 of 32 bytes>`, shown only in this response.'),
});

/** Account webhook endpoints for job and operations alerts, and the job callback secret. */
export function alertRoutes(): RouteDef[] {
  return [
    ...endpointRoutes({
      base: '/api/webhook-endpoints',
      tags,
      auth,
      accountOf,
      eventTypes: alerts.ALERT_EVENT_TYPES,
      service: alerts,
      operationIds: {
        create: 'createWebhookEndpoint',
        list: 'listWebhookEndpoints',
        get: 'getWebhookEndpoint',
        update: 'updateWebhookEndpoint',
        delete: 'deleteWebhookEndpoint',
        test: 'testWebhookEndpoint',
        deliveries: 'listWebhookEndpointDeliveries',
      },
      docs: {
        createSummary: 'Create a webhook endpoint for alerts.',
        create: docs.createWebhookEndpointDescription,
        test: docs.testWebhookEndpointDescription,
        notFound: "in the session's account",
        testJobId: 'The delivery workflow `alert-event:<event_id>`.',
        temporalUnavailable: docs.temporalUnavailableError,
      },
    }),

    route(
      {
        method: 'post',
        path: '/api/job-callbacks/secret',
        operationId: 'rotateJobCallbackSecret',
        tags,
        auth,
        summary: "Create or rotate the account's job callback signing secret.",
        description: docs.rotateCallbackSecretDescription,
        responses: { 201: { description: 'The new secret, shown once', schema: callbackSecretSchema } },
      },
      async ({ auth: caller, deps }) => ({
        status: 201,
        body: { object: 'callback_secret' as const, secret: await alerts.rotateCallbackSecret(deps, accountOf(caller)) },
      }),
    ),

    route(
      {
        method: 'get',
        path: '/api/job-callbacks/deliveries',
        operationId: 'listJobCallbackDeliveries',
        tags,
        auth,
        summary: 'List the deliveries to job callback URLs, newest first.',
        description: docs.listCallbackDeliveriesDescription,
        query: pagedQuery,
        responses: { 200: { description: 'A page of deliveries', schema: listEnvelopeSchema(deliverySchema) } },
      },
      async ({ query, auth: caller, deps }) => {
        const { rows, total } = await alerts.listCallbackDeliveries(deps.db, accountOf(caller), query);
        return { body: listEnvelope(rows.map(toDeliveryJson), total, query) };
      },
    ),
  ];
}
