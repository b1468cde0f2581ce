import { z } from 'zod';
import { JobSchema } from '../jobs/schemas';
import { route, type RouteDef } from '../http/route';
import { runScheduleNow } from './service';
import * as docs from './docs';

const tags = ['Cron'];

const params = z.object({
  name: z.string().describe('Schedule name, as in the schedule table (its Temporal Schedule is `workyard:<name>`).'),
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
        summary: 'Run a scheduled sweep now.',
        description: docs.runCronDescription,
        responses: { 202: { description: 'The run, started', schema: JobSchema } },
        errors: [
          { status: 404, code: 'schedule_not_found', description: 'No schedule with this name.' },
          { status: 401, code: 'cron_secret_unset', description: docs.cronSecretUnsetError },
        ],
      },
      async ({ deps, params: { name }, requestId }) => ({ status: 202, body: await runScheduleNow(deps, name, requestId) }),
    ),
  ];
}
