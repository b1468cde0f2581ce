import { accountOf } from '../auth/authenticate';
import { route, type RouteDef } from '../http/route';
import { jobPath } from '../temporal/jobIds';
import * as docs from './actionDocs';
import { BulkBody, BulkIdParams, BulkOperationSchema } from './bulkSchemas';
import { getBulk, startBulk } from './bulkService';
import { replayJob } from './replayService';
import { createdJob } from './start/answer';
import { JOB_ROUTE_VARIANTS, JOB_TAGS as tags, jobNotFoundError as jobNotFound, type JobRouteVariant as Variant } from './routeVariants';
import { JobIdParams, JobSchema } from './schemas';

const notReplayable = {
  status: 409,
  code: 'job_not_replayable',
  description: "The job's kind cannot be replayed (its input is not the work, or its start was checked or charged); the message says why.",
};

function routesFor(v: Variant): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: `${v.prefix}/bulk`,
        operationId: v.op('startJobsBulk'),
        tags,
        auth: v.write,
        body: BulkBody,
        idempotent: true,
        summary: docs.bulkStartSummary,
        description: docs.bulkStartDescription,
        responses: {
          202: {
            description: 'The bulk operation, started',
            schema: BulkOperationSchema,
            headers: { Location: 'Where to poll it: `/api/jobs/bulk/{id}` (or `/api/agent/jobs/bulk/{id}`).' },
          },
        },
        errors: [
          { ...notReplayable, description: 'A bulk replay filtered on a kind that cannot be replayed; the message says why.' },
          {
            status: 422,
            code: 'bulk_too_many_jobs',
            description: 'The filter matches more jobs than one bulk operation acts on; narrow it.',
          },
        ],
      },
      async ({ auth, deps, body, requestId }) => {
        const operation = await startBulk(deps, accountOf(auth), body, requestId);
        return { status: 202, body: operation, headers: { Location: jobPath(operation.id, `${v.prefix}/bulk`) } };
      },
    ),

    route(
      {
        method: 'get',
        path: `${v.prefix}/bulk/{id}`,
        operationId: v.op('getJobsBulk'),
        tags,
        auth: v.read,
        params: BulkIdParams,
        summary: docs.bulkGetSummary,
        description: docs.bulkGetDescription,
        responses: { 200: { description: 'The bulk operation', schema: BulkOperationSchema } },
        errors: [
          {
            status: 404,
            code: 'bulk_operation_not_found',
            description: "No bulk operation with this id in the account (another account's answers the same).",
          },
        ],
      },
      async ({ auth, deps, params }) => ({ body: await getBulk(deps, accountOf(auth), params.id) }),
    ),

    route(
      {
        method: 'post',
        path: `${v.prefix}/{id}/replay`,
        operationId: v.op('replayJob'),
        tags,
        auth: v.write,
        params: JobIdParams,
        idempotent: true,
        summary: docs.replaySummary,
        description: docs.replayDescription,
        responses: {
          201: {
            description: 'The new job',
            schema: JobSchema,
            headers: { Location: 'The new job: `/api/jobs/{id}` (or `/api/agent/jobs/{id}`).' },
          },
        },
        errors: [
          jobNotFound,
          notReplayable,
          { status: 409, code: 'job_not_closed', description: 'The job is still running; cancel it or wait, then replay it.' },
          {
            status: 409,
            code: 'job_completed',
            description: 'The job completed: only failed, canceled, timed-out or terminated jobs are replayed.',
          },
        ],
      },
      async ({ auth, deps, params, requestId }) => {
        const job = await replayJob(deps.temporal, deps.metrics, { accountId: accountOf(auth), id: params.id, requestId });
        return createdJob(job, v.prefix);
      },
    ),
  ];
}

/** Replay and bulk actions on jobs. Registered before `jobRoutes()`: `/api/jobs/bulk/…` must win over `/api/jobs/{id}/…`. */
export function jobActionRoutes(): RouteDef[] {
  return JOB_ROUTE_VARIANTS.flatMap(routesFor);
}
