import { z } from 'zod';
import { route, type RouteDef } from '../http/route';
import { DEFAULT_JOB_PAGE, JOB_STATUSES } from '../jobs/schemas';
import * as docs from './docs';
import { ScheduleRunListSchema, ScheduleRunSchema } from './scheduleRunJson';
import { getScheduleRun, listScheduleRuns } from './scheduleRuns';

const tags = ['Cron'];
const auth = { kind: 'cron' as const };
/** Each closed run listed costs a read of its result: pages are smaller than job pages. */
const MAX_RUN_PAGE = 50;

const name = z.string().min(1).max(100).describe('Schedule name (its Temporal Schedule is `workyard:<name>`).');
const listParams = z.strictObject({ name });
const runParams = z.strictObject({
  name,
  id: z.string().describe('The run id as `POST /api/cron/{name}` answered it or a list shows it (URL-encoded).'),
});
const listQuery = z.strictObject({
  status: z.enum(JOB_STATUSES).optional().describe('Only runs in this status.'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_RUN_PAGE)
    .default(DEFAULT_JOB_PAGE)
    .describe(`Page size, 1–${MAX_RUN_PAGE}; default ${DEFAULT_JOB_PAGE}.`),
  cursor: z.string().max(4096).optional().describe('`next_cursor` of the previous page, with the same filters.'),
});

const unset = { status: 401, code: 'cron_secret_unset', description: 'CRON_SECRET is not configured: the operator routes are closed.' };
const noSchedule = { status: 404, code: 'schedule_not_found', description: 'No schedule with this name in the table.' };

/** The runs of a schedule for operators: scheduled and hand-started, with their outcome. */
export function scheduleRunRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/schedules/{name}/runs',
        operationId: 'listScheduleRuns',
        tags,
        auth,
        params: listParams,
        query: listQuery,
        summary: 'Runs of a schedule, scheduled and started by hand, newest first, by cursor.',
        description: docs.scheduleRunsDescription,
        responses: { 200: { description: 'A page of runs', schema: ScheduleRunListSchema } },
        errors: [
          noSchedule,
          { status: 400, code: 'invalid_cursor', description: 'The cursor is not a `next_cursor` of this listing.' },
          unset,
        ],
      },
      async ({ deps, params, query }) => ({ body: await listScheduleRuns(deps, params.name, query) }),
    ),
    route(
      {
        method: 'get',
        path: '/api/schedules/{name}/runs/{id}',
        operationId: 'getScheduleRun',
        tags,
        auth,
        params: runParams,
        summary: 'One run of a schedule: status, progress or result, partial flag, per-account counts.',
        description: docs.scheduleRunDescription,
        responses: { 200: { description: 'The run', schema: ScheduleRunSchema } },
        errors: [noSchedule, { status: 404, code: 'schedule_run_not_found', description: 'No run of this schedule with this id.' }, unset],
      },
      async ({ deps, params }) => ({ body: await getScheduleRun(deps, params.name, params.id) }),
    ),
  ];
}
