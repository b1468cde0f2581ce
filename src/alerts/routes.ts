import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import type { AuthSpec } from '../auth/types';
import { optionalText } from '../http/fields';
import { idParams } from '../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../http/pagination';
import type { RouteDef } from '../http/route';
import { route } from '../http/route';
import { jobPath } from '../temporal/jobIds';
import * as docs from './docs';
import * as alerts from './service';
import type { DeliveryRow, EndpointRow } from './store';

const tags = ['Webhook endpoints'];
const auth: AuthSpec = { kind: 'session', roles: ['owner', 'admin'] };
const base = '/api/webhook-endpoints';

const urlField = z.string().trim().min(1, { error: 'must not be empty' }).describe(docs.urlRule);
const eventsField = z
  .array(z.enum(alerts.ALERT_EVENT_TYPES))
  .min(1, { error: 'must name at least one event type' })
  .refine((list) => new Set(list).size === list.length, { error: 'must not repeat an event type' })
  .describe(`Event types to receive: a non-empty subset of ${alerts.ALERT_EVENT_TYPES.join(', ')}.`);

const createBody = z.strictObject({
  url: urlField,
  events: eventsField,
  description: optionalText(500).optional().describe('Up to 500 characters.'),
});

const patchBody = z.strictObject({
  url: urlField.optional(),
  events: eventsField.optional(),
  description: optionalText(500).optional().describe('null or "" clears it.'),
  enabled: z.boolean().optional().describe('A disabled endpoint receives nothing; retries in progress stop at their next attempt.'),
});

const pagedQuery = z.strictObject({ ...pageQuery });

const endpointSchema = z.object({
  id: z.string(),
  object: z.literal('webhook_endpoint'),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  created_at: z.string().describe('ISO 8601'),
  updated_at: z.string().describe('ISO 8601'),
});

const createdSchema = endpointSchema.extend({
  secret: z.string().describe('The signing secret `whsec_<base64 of 32 bytes>`, shown only in this response.'),
});

const deliverySchema = z.object({
  id: z.string(),
  event_id: z.string().describe('Also the `webhook-id` header of every attempt.'),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  last_status: z.number().int().nullable().describe('HTTP status of the last attempt; null when it got no answer.'),
  last_error: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

const testAccepted = z.object({
  event_id: z.string(),
  job_id: z.string().describe('The delivery workflow `alert-event:<event_id>`.'),
});

const callbackSecretSchema = z.object({
  object: z.literal('callback_secret'),
  secret: z.string().describe('The callback signing secret `whsec_<base64 of 32 bytes>`, shown only in this response.'),
});

const toEndpointJson = (e: EndpointRow): z.infer<typeof endpointSchema> => ({
  id: e.id,
  object: 'webhook_endpoint',
  url: e.url,
  events: e.events,
  description: e.description,
  enabled: e.enabled,
  created_at: e.created_at.toISOString(),
  updated_at: e.updated_at.toISOString(),
});

const toDeliveryJson = (d: DeliveryRow): z.infer<typeof deliverySchema> => ({
  id: d.id,
  event_id: d.event_id,
  event_type: d.event_type,
  status: d.status,
  attempts: d.attempts,
  last_status: d.last_status,
  last_error: d.last_error,
  delivered_at: d.delivered_at?.toISOString() ?? null,
  created_at: d.created_at.toISOString(),
  updated_at: d.updated_at.toISOString(),
});

const notFound = {
  status: 404,
  code: 'webhook_endpoint_not_found',
  description: "No webhook endpoint with this id in the session's account (also for a malformed id or another account's).",
};
const badUrl = { status: 400, code: 'validation_failed', description: docs.validationFailedError };

/** Account webhook endpoints for job and operations alerts, and the job callback secret (issue 21). */
export function alertRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: base,
        operationId: 'createWebhookEndpoint',
        tags,
        auth,
        summary: 'Create a webhook endpoint for alerts.',
        description: docs.createWebhookEndpointDescription,
        body: createBody,
        responses: { 201: { description: 'The endpoint, with its signing secret', schema: createdSchema } },
        errors: [badUrl],
      },
      async ({ body, auth: caller, deps }) => {
        const { endpoint, secret } = await alerts.createEndpoint(deps, accountOf(caller), body);
        return { status: 201, body: { ...toEndpointJson(endpoint), secret } };
      },
    ),

    route(
      {
        method: 'get',
        path: base,
        operationId: 'listWebhookEndpoints',
        tags,
        auth,
        summary: 'List webhook endpoints, newest first.',
        description: docs.listWebhookEndpointsDescription,
        query: pagedQuery,
        responses: { 200: { description: 'A page of endpoints', schema: listEnvelopeSchema(endpointSchema) } },
      },
      async ({ query, auth: caller, deps }) => {
        const { rows, total } = await alerts.listEndpoints(deps.db, accountOf(caller), query);
        return { body: listEnvelope(rows.map(toEndpointJson), total, query) };
      },
    ),

    route(
      {
        method: 'get',
        path: `${base}/{id}`,
        operationId: 'getWebhookEndpoint',
        tags,
        auth,
        summary: 'Get a webhook endpoint (never its secret).',
        params: idParams,
        responses: { 200: { description: 'The endpoint', schema: endpointSchema } },
        errors: [notFound],
      },
      async ({ params, auth: caller, deps }) => ({
        body: toEndpointJson(await alerts.getEndpoint(deps.db, accountOf(caller), params.id)),
      }),
    ),

    route(
      {
        method: 'patch',
        path: `${base}/{id}`,
        operationId: 'updateWebhookEndpoint',
        tags,
        auth,
        summary: 'Update a webhook endpoint.',
        description: docs.updateWebhookEndpointDescription,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The endpoint', schema: endpointSchema } },
        errors: [notFound, badUrl],
      },
      async ({ params, body, auth: caller, deps }) => ({
        body: toEndpointJson(await alerts.updateEndpoint(deps, accountOf(caller), params.id, body)),
      }),
    ),

    route(
      {
        method: 'delete',
        path: `${base}/{id}`,
        operationId: 'deleteWebhookEndpoint',
        tags,
        auth,
        summary: 'Delete a webhook endpoint and its delivery records.',
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [notFound],
      },
      async ({ params, auth: caller, deps }) => {
        await alerts.deleteEndpoint(deps.db, accountOf(caller), params.id);
        return { status: 204 };
      },
    ),

    route(
      {
        method: 'post',
        path: `${base}/{id}/test`,
        operationId: 'testWebhookEndpoint',
        tags,
        auth,
        summary: 'Send a signed test event to the endpoint now.',
        description: docs.testWebhookEndpointDescription,
        params: idParams,
        responses: { 202: { description: 'The test event, handed to its delivery workflow', schema: testAccepted } },
        errors: [
          notFound,
          { status: 409, code: 'webhook_endpoint_disabled', description: docs.webhookEndpointDisabledError },
          { status: 503, code: 'temporal_unavailable', description: docs.temporalUnavailableError },
        ],
      },
      async ({ params, auth: caller, deps, requestId }) => {
        const { eventId, jobId } = await alerts.sendTestEvent(deps, accountOf(caller), params.id, requestId);
        return { status: 202, body: { event_id: eventId, job_id: jobId }, headers: { Location: jobPath(jobId) } };
      },
    ),

    route(
      {
        method: 'get',
        path: `${base}/{id}/deliveries`,
        operationId: 'listWebhookEndpointDeliveries',
        tags,
        auth,
        summary: "List the endpoint's deliveries, newest first.",
        description: docs.listWebhookDeliveriesDescription,
        params: idParams,
        query: pagedQuery,
        responses: { 200: { description: 'A page of deliveries', schema: listEnvelopeSchema(deliverySchema) } },
        errors: [notFound],
      },
      async ({ params, query, auth: caller, deps }) => {
        const { rows, total } = await alerts.listEndpointDeliveries(deps.db, accountOf(caller), params.id, query);
        return { body: listEnvelope(rows.map(toDeliveryJson), total, query) };
      },
    ),

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
