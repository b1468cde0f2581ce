import { z } from 'zod';
import { JobSchema } from '../jobs/schemas';
import { route, type RouteDef } from '../http/route';
import { RunNowBody } from './runNowOptions';
import { runScheduleNow } from './service';
import * as docs from './docs';

const tags = ['Cron'];

const params = z.object({
  name: z.string().describe('Schedule name, as in the schedule table (its Temporal Schedule is `workyard:<name>`).'),
});

const StartedRunSchema = JobSchema.extend({
  run_url: z.string().describe('Where operators read this run with the cron secret: `/api/schedules/{name}/runs/{id}` (also `Location`).'),
});

/** Manual "run now" of the sweeps that Temporal Schedules run on their cron. */
export function cronRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/cron/{name}',
        operationId: 'runCron',
        tags,
        auth: { kind: 'cron' },
        params,
        body: RunNowBody,
        summary: 'Run a scheduled sweep now.',
        description: docs.runCronDescription,
        responses: {
          202: {
            description: 'The run, started',
            schema: StartedRunSchema,
            headers: { Location: 'The run: `/api/schedules/{name}/runs/{id}`, read with the cron secret.' },
          },
        },
        errors: [
          { status: 400, code: 'validation_failed', description: docs.runNowValidationError },
          { status: 400, code: 'invalid_reference', description: '`account_id` names no account.' },
          { status: 404, code: 'schedule_not_found', description: 'No schedule with this name.' },
          { status: 401, code: 'cron_secret_unset', description: docs.cronSecretUnsetError },
        ],
      },
      async ({ deps, params: { name }, body, requestId }) => {
        const run = await runScheduleNow(deps, name, body, requestId);
        return { status: 202, body: run, headers: { Location: run.run_url } };
      },
    ),
  ];
}
