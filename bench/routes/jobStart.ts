import { accountOf } from '../../src/auth/authenticate';
import { route, type RouteDef } from '../../src/http/route';
import { JobSchema } from '../../src/jobs/schemas';
import { startJob } from '../../src/temporal/jobs';
import { benchTrivialContract } from '../workflows/benchTrivial.contract';

export const JOB_START_PATH = '/api/bench/jobs';

/**
 * A bench-only route, mounted only in the bench servers (BENCH_JOB_ROUTE=1): starts the bench's trivial job through
 * the full route layer and the job helper (ids, search attributes, memo, priority, metrics, the job index record), as
 * the product's job-starting routes do before their own checks.
 */
export function benchJobStartRoute(): RouteDef {
  return route(
    {
      method: 'post',
      path: JOB_START_PATH,
      operationId: 'benchStartJob',
      tags: ['Bench'],
      auth: { kind: 'session' },
      summary: 'Bench only: starts a job that does nothing.',
      responses: { 202: { description: 'The job, started', schema: JobSchema.pick({ id: true }) } },
    },
    async ({ auth, deps, requestId }) => {
      const { id } = await startJob(deps.temporal, deps.metrics, benchTrivialContract, { accountId: accountOf(auth), args: [], requestId });
      return { status: 202, body: { id } };
    },
  );
}
