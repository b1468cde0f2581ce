import { z } from 'zod';
import { route, type RouteDef } from '../http/route';
import { scheduleRunRoutes } from './runRoutes';
import { listSchedules, pauseSchedule, triggerSchedule, unpauseSchedule } from './scheduleControls';

const tags = ['Cron'];
const auth = { kind: 'cron' as const };

const params = z.strictObject({ name: z.string().min(1).max(100).describe('Schedule name (its Temporal Schedule is `workyard:<name>`).') });
const noteBody = z.strictObject({ note: z.string().trim().min(1).max(500).describe('Why (shown in the Temporal UI).') });

const scheduleSchema = z
  .object({
    name: z.string(),
    cron: z.string(),
    description: z.string(),
    workflow_type: z.string(),
    overlap: z.string(),
    run_now_options: z
      .array(z.string())
      .describe('The body members `POST /api/cron/{name}` takes for this sweep (`account_id`, `disconnect_cap`); [] when it takes none.'),
    synced: z.boolean().describe('False when Temporal has no such schedule yet (`npm start` or `schedules sync` creates it).'),
    paused: z.boolean(),
    note: z.string().nullable(),
    next_runs: z.array(z.string()).describe('The next three times it would fire (UTC).'),
    last_run: z
      .object({ job_id: z.string(), scheduled_at: z.string(), started_at: z.string(), status: z.string() })
      .nullable()
      .describe("The newest run it started and that run's status now (running, completed, failed …)."),
  })
  .meta({ id: 'Schedule' });

const errors = [
  { status: 404, code: 'schedule_not_found', description: 'No schedule with this name in the table.' },
  { status: 409, code: 'schedule_not_synced', description: 'The table names it but Temporal has no such schedule yet.' },
  { status: 401, code: 'cron_secret_unset', description: 'CRON_SECRET is not configured: the operator routes are closed.' },
];

const DESCRIPTION =
  "Operator route: the schedules are the service's own (every account's sweeps), so they take the operators' `Authorization: Bearer <CRON_SECRET>`, not an account role — an account owner must not pause another account's sweeps.";

/** Schedule controls for operators: list, pause, unpause and trigger the service's Temporal Schedules, and read their runs. */
export function scheduleRoutes(): RouteDef[] {
  const action = (verb: 'pause' | 'unpause', summary: string) =>
    route(
      {
        method: 'post',
        path: `/api/schedules/{name}/${verb}`,
        operationId: `${verb}Schedule`,
        tags,
        auth,
        params,
        body: verb === 'pause' ? noteBody : noteBody.partial(),
        summary,
        description: DESCRIPTION,
        responses: { 200: { description: 'The schedule now', schema: scheduleSchema } },
        errors,
      },
      async ({ deps, params: { name }, body }) => ({
        body: await (verb === 'pause' ? pauseSchedule : unpauseSchedule)(deps, name, body.note ?? 'unpaused through the API'),
      }),
    );
  return [
    route(
      {
        method: 'get',
        path: '/api/schedules',
        operationId: 'listSchedules',
        tags,
        auth,
        summary: 'Every schedule: spec, paused and note, next runs, the last run and its outcome.',
        description: DESCRIPTION,
        responses: { 200: { description: 'The schedules', schema: z.object({ data: z.array(scheduleSchema) }) } },
        errors: errors.filter((e) => e.status === 401),
      },
      async ({ deps }) => ({ body: { data: await listSchedules(deps) } }),
    ),
    action('pause', 'Pause a schedule (with a note).'),
    action('unpause', 'Unpause a schedule.'),
    route(
      {
        method: 'post',
        path: '/api/schedules/{name}/trigger',
        operationId: 'triggerSchedule',
        tags,
        auth,
        params,
        summary: 'Fire a schedule now through Temporal (its overlap policy applies).',
        description: `${DESCRIPTION} Unlike \`POST /api/cron/{name}\` (a run outside the schedule), this is one of the schedule's own actions: it shows in its recent runs and follows its overlap policy.`,
        responses: {
          202: {
            description: 'Triggered; the schedule now',
            schema: scheduleSchema,
            headers: { Location: 'Where the triggered run shows: `/api/schedules/{name}/runs`.' },
          },
        },
        errors,
      },
      async ({ deps, params: { name } }) => ({
        status: 202,
        body: await triggerSchedule(deps, name),
        headers: { Location: `/api/schedules/${encodeURIComponent(name)}/runs` },
      }),
    ),
    ...scheduleRunRoutes(),
  ];
}
