import { z } from 'zod';
import type { AppDeps } from '../deps';
import { idParams } from '../http/ids';
import { listEnvelope, listEnvelopeSchema } from '../http/pagination';
import type { RouteDef } from '../http/route';
import { route } from '../http/route';
import type { RouteAuthContext, RouteAuthSpec } from '../http/routeAuth';
import { jobPath } from '../temporal/jobIds';
import type { endpointService } from './endpointService';
import {
  createdSchema,
  deliverySchema,
  endpointBodies,
  endpointSchema,
  pagedQuery,
  toDeliveryJson,
  toEndpointJson,
  urlRule,
} from './endpointSchemas';

/** The service of one area's registry (its `endpointService`). */
type EndpointService = ReturnType<typeof endpointService<AppDeps>>;

/** The seven operations of an endpoint registry, by name. */
type Operation = 'create' | 'list' | 'get' | 'update' | 'delete' | 'test' | 'deliveries';

/** What one area's endpoint routes differ in; the rest (schemas, rules, shared prose) is the same everywhere. */
export interface EndpointRoutesOptions<T extends readonly [string, ...string[]]> {
  /** `/v1/email/webhooks`: the collection; an endpoint is `{base}/{id}`. */
  base: string;
  tags: string[];
  auth: RouteAuthSpec;
  /** The caller's account (the auth area's `accountOf`). */
  accountOf(caller: RouteAuthContext): string;
  eventTypes: T;
  service: EndpointService;
  operationIds: Record<Operation, string>;
  docs: {
    createSummary: string;
    create: string;
    test: string;
    /** Who may not see another account's endpoint: "in the session's account". */
    notFound: string;
    /** The `job_id` of a test: "The delivery workflow `email-event:<event_id>`." */
    testJobId: string;
    temporalUnavailable: string;
  };
}

export const validationFailedError = `\`body.url\` breaks the URL rule: ${urlRule}`;

/** Create, list, get, update, delete, test and deliveries of an area's webhook endpoints. */
export function endpointRoutes<T extends readonly [string, ...string[]]>(options: EndpointRoutesOptions<T>): RouteDef[] {
  const { base, tags, auth, accountOf, service, operationIds, docs } = options;
  const { createBody, patchBody } = endpointBodies(options.eventTypes);
  const testAccepted = z.object({
    event_id: z.string(),
    job_id: z.string().describe(docs.testJobId),
  });
  const notFound = {
    status: 404,
    code: 'webhook_endpoint_not_found',
    description: `No webhook endpoint with this id ${docs.notFound} (also for a malformed id or another account's).`,
  };
  const badUrl = { status: 400, code: 'validation_failed', description: validationFailedError };

  return [
    route(
      {
        method: 'post',
        path: base,
        operationId: operationIds.create,
        tags,
        auth,
        summary: docs.createSummary,
        description: docs.create,
        body: createBody,
        responses: { 201: { description: 'The endpoint, with its signing secret', schema: createdSchema } },
        errors: [badUrl],
      },
      async ({ body, auth: caller, deps }) => {
        const { endpoint, secret } = await service.createEndpoint(deps, accountOf(caller), body);
        return { status: 201, body: { ...toEndpointJson(endpoint), secret } };
      },
    ),

    route(
      {
        method: 'get',
        path: base,
        operationId: operationIds.list,
        tags,
        auth,
        summary: 'List webhook endpoints, newest first.',
        description: 'Answers `{ data, total, page, limit }`; never the signing secrets.',
        query: pagedQuery,
        responses: { 200: { description: 'A page of endpoints', schema: listEnvelopeSchema(endpointSchema) } },
      },
      async ({ query, auth: caller, deps }) => {
        const { rows, total } = await service.listEndpoints(deps.db, accountOf(caller), query);
        return { body: listEnvelope(rows.map(toEndpointJson), total, query) };
      },
    ),

    route(
      {
        method: 'get',
        path: `${base}/{id}`,
        operationId: operationIds.get,
        tags,
        auth,
        summary: 'Get a webhook endpoint (never its secret).',
        params: idParams,
        responses: { 200: { description: 'The endpoint', schema: endpointSchema } },
        errors: [notFound],
      },
      async ({ params, auth: caller, deps }) => ({
        body: toEndpointJson(await service.getEndpoint(deps.db, accountOf(caller), params.id)),
      }),
    ),

    route(
      {
        method: 'patch',
        path: `${base}/{id}`,
        operationId: operationIds.update,
        tags,
        auth,
        summary: 'Update a webhook endpoint.',
        description: 'Partial: an absent field stays. The signing secret does not change.',
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The endpoint', schema: endpointSchema } },
        errors: [notFound, badUrl],
      },
      async ({ params, body, auth: caller, deps }) => ({
        body: toEndpointJson(await service.updateEndpoint(deps, accountOf(caller), params.id, body)),
      }),
    ),

    route(
      {
        method: 'delete',
        path: `${base}/{id}`,
        operationId: operationIds.delete,
        tags,
        auth,
        summary: 'Delete a webhook endpoint and its delivery records.',
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [notFound],
      },
      async ({ params, auth: caller, deps }) => {
        await service.deleteEndpoint(deps.db, accountOf(caller), params.id);
        return { status: 204 };
      },
    ),

    route(
      {
        method: 'post',
        path: `${base}/{id}/test`,
        operationId: operationIds.test,
        tags,
        auth,
        summary: 'Send a signed test event to the endpoint now.',
        description: docs.test,
        params: idParams,
        responses: {
          202: {
            description: 'The test event, handed to its delivery workflow',
            schema: testAccepted,
            headers: { Location: "The delivery's job: `/api/jobs/{id}`." },
          },
        },
        errors: [
          notFound,
          { status: 409, code: 'webhook_endpoint_disabled', description: 'The endpoint is disabled; nothing is sent.' },
          { status: 503, code: 'temporal_unavailable', description: docs.temporalUnavailable },
        ],
      },
      async ({ params, auth: caller, deps, requestId }) => {
        const { eventId, jobId } = await service.sendTestEvent(deps, accountOf(caller), params.id, requestId);
        return { status: 202, body: { event_id: eventId, job_id: jobId }, headers: { Location: jobPath(jobId) } };
      },
    ),

    route(
      {
        method: 'get',
        path: `${base}/{id}/deliveries`,
        operationId: operationIds.deliveries,
        tags,
        auth,
        summary: "List the endpoint's deliveries, newest first.",
        description:
          'One delivery per event sent to this endpoint: `status` pending (retrying), delivered or failed; `attempts`, the last HTTP status and error.',
        params: idParams,
        query: pagedQuery,
        responses: { 200: { description: 'A page of deliveries', schema: listEnvelopeSchema(deliverySchema) } },
        errors: [notFound],
      },
      async ({ params, query, auth: caller, deps }) => {
        const { rows, total } = await service.listEndpointDeliveries(deps.db, accountOf(caller), params.id, query);
        return { body: listEnvelope(rows.map(toDeliveryJson), total, query) };
      },
    ),
  ];
}
