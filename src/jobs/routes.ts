import { accountOf } from '../auth/authenticate';
import { route, type RouteDef } from '../http/route';
import { JOB_ROUTE_VARIANTS, JOB_TAGS as tags, jobNotFoundError as notFound, type JobRouteVariant as Variant } from './routeVariants';
import { JobIdParams, JobListQuery, JobListSchema, JobSchema } from './schemas';
import { listIndexedJobs } from './jobIndex';
import { cancelJob, getJob } from './service';
import * as docs from './docs';
import { ACCEPTED_JOB_HEADERS } from './accepted';
import { jobPath } from '../temporal/jobIds';

const LIST_DESCRIPTION = [
  'Jobs of the account, filtered by `kind`, `status`, `content_id` and `tag`, from the job index (Postgres). ',
  'Paged by cursor, not by page number, with no `total`: pass `next_cursor` as `cursor` with the same filters for the next page; ',
  'a cursor from other filters is 400 `invalid_cursor`. `has_more` is true when another page follows. ',
  'Order: running jobs first, newest first, then closed ones, most recently closed first. ',
  'A job started through the API is listed at once; its close is listed as soon as the job reports it, and a close that runs no ',
  'job code (a cancellation, a termination, a timeout) within a few seconds. `GET /api/jobs/{id}` asks Temporal and is always current. ',
  'List items carry no progress, result or error: fetch the job for those.',
].join('');

function routesFor(v: Variant): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: `${v.prefix}/{id}`,
        operationId: v.op('getJob'),
        tags,
        auth: v.read,
        params: JobIdParams,
        summary: docs.routesSummary,
        description: docs.routesDescription,
        responses: { 200: { description: 'The job', schema: JobSchema } },
        errors: [notFound],
      },
      async ({ auth, deps, params }) => ({ body: await getJob(deps.temporal, accountOf(auth), params.id) }),
    ),

    route(
      {
        method: 'get',
        path: v.prefix,
        operationId: v.op('listJobs'),
        tags,
        auth: v.read,
        query: JobListQuery,
        summary: 'Jobs of the account, newest first, by cursor.',
        description: LIST_DESCRIPTION,
        responses: { 200: { description: 'A page of jobs', schema: JobListSchema } },
        errors: [{ status: 400, code: 'invalid_cursor', description: 'The cursor is not a `next_cursor` of this listing (same filters).' }],
      },
      async ({ auth, deps, query }) => ({ body: await listIndexedJobs(deps, accountOf(auth), query) }),
    ),

    route(
      {
        method: 'post',
        path: `${v.prefix}/{id}/cancel`,
        operationId: v.op('cancelJob'),
        tags,
        auth: v.write,
        params: JobIdParams,
        summary: 'Request cancellation of a running job.',
        description: docs.routesDescription2,
        responses: { 202: { description: docs.routesDescription3, schema: JobSchema, headers: ACCEPTED_JOB_HEADERS } },
        errors: [notFound, { status: 409, code: 'job_not_running', description: 'The job already closed.' }],
      },
      async ({ auth, deps, params }) => {
        const job = await cancelJob(deps.temporal, accountOf(auth), params.id);
        return { status: 202, body: job, headers: { Location: jobPath(job.id, v.prefix) } };
      },
    ),
  ];
}

/** The generic job surface, for sessions (`/api/jobs`) and for agent keys (`/api/agent/jobs`, `jobs:read` / `jobs:write`). */
export function jobRoutes(): RouteDef[] {
  return JOB_ROUTE_VARIANTS.flatMap(routesFor);
}
