import { z } from 'zod';
import { JobSchema } from '../jobs/schemas';
import { route, type RouteDef } from '../http/route';
import { runScheduleNow } from './service';

const tags = ['Cron'];

const params = z.object({
  name: z.string().describe('Schedule name, as in the schedule table (its Temporal Schedule is `workyard:<name>`).'),
});

/** Manual "run now" of the sweeps that Temporal Schedules run on their cron. */
export function cronRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/api/cron/{name}', operationId: 'runCron', tags, auth: { kind: 'cron' }, params,
      summary: 'Run a scheduled sweep now.',
      description: 'The sweeps run as Temporal Schedules on their cron (UTC); this starts the same workflow once more, at once, '
        + 'as run `cron:<name>:<uuid>` with `AccountId = _system` and `JobKind = <name>`, and answers 202 with it. '
        + 'Authorization: `Bearer <CRON_SECRET>`, compared in constant time; with CRON_SECRET unset every call is 401 '
        + '`cron_secret_unset`. The run belongs to no account, so `/api/jobs` does not show it: follow `links.temporal_ui`.',
      responses: { 202: { description: 'The run, started', schema: JobSchema } },
      errors: [
        { status: 404, code: 'schedule_not_found', description: 'No schedule with this name.' },
        { status: 401, code: 'cron_secret_unset', description: 'CRON_SECRET is not configured: cron routes are closed.' },
      ],
    }, async ({ deps, params: { name }, requestId }) => ({ status: 202, body: await runScheduleNow(deps, name, requestId) })),
  ];
}
