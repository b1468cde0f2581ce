import { z } from 'zod';
import { accountOf } from '../../src/auth/authenticate';
import { ApiError } from '../../src/http/errors';
import { route, type RouteDef } from '../../src/http/route';
import { ACCEPTED_JOB_HEADERS, acceptedJob } from '../../src/jobs/accepted';
import { JobSchema } from '../../src/jobs/schemas';
import { describeJob } from '../../src/temporal/jobView';
import { startJob, type StartJobInput } from '../../src/temporal/jobs';
import { startAndWait } from '../../src/temporal/startAndWait';
import type { WorkflowContract } from '../../workflows/defineWorkflow';
import { failingJobContract } from '../workflows/failingJob.contract';
import { quickJobContract } from '../workflows/quickJob.contract';
import { steppedJobContract } from '../workflows/steppedJob.contract';

/**
 * Test workflows (test/workflows/) the test routes can start, by route kind. The route passes the test's JSON input
 * through unchecked (tests send wrong inputs on purpose), so the table only promises an object argument.
 */
export const TEST_JOBS: Record<'stepped' | 'failing' | 'quick', WorkflowContract<[object]>> = {
  stepped: steppedJobContract,
  failing: failingJobContract,
  quick: quickJobContract,
};

const params = z.object({ kind: z.enum(Object.keys(TEST_JOBS) as [keyof typeof TEST_JOBS]) });

const body = z.strictObject({
  input: z.record(z.string(), z.unknown()),
  key: z.string().min(1).max(255).optional(),
  content_id: z.uuid().optional(),
  wait_seconds: z.number().min(0).max(30).optional(),
});

/** Routes mounted only in tests, to drive shared machinery (e.g. the start-and-wait helper) through real HTTP. */
export function testRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/test/jobs/{kind}',
        operationId: 'testStartJob',
        tags: ['Test'],
        auth: { kind: 'session' },
        summary: 'Test only: start a test workflow as a job; with `wait_seconds`, start and wait (201 result or 202 job).',
        params,
        body,
        idempotent: true,
        responses: {
          201: { description: 'Finished in time', schema: z.object({ job_id: z.string(), result: z.unknown() }) },
          202: { description: 'Started; poll Location', schema: JobSchema, headers: ACCEPTED_JOB_HEADERS },
        },
      },
      async ({ auth, deps, params, body, ctx, requestId }) => {
        const contract = TEST_JOBS[params.kind];
        const input: StartJobInput<[object]> = {
          accountId: accountOf(auth),
          args: [body.input],
          requestId,
          key: body.key ?? (ctx.get('idempotency-key') || undefined),
          searchAttributes: { ContentId: body.content_id },
        };
        if (body.wait_seconds !== undefined) {
          const outcome = await startAndWait(deps, contract, input, { waitSeconds: body.wait_seconds });
          if (outcome.status === 'running') return acceptedJob(outcome.job);
          return { status: 201, body: { job_id: outcome.jobId, result: outcome.result } };
        }
        const started = await startJob(deps.temporal, deps.metrics, contract, input);
        const described = await describeJob(deps.temporal, started.id);
        if (!described) throw new ApiError(503, 'temporal_unavailable', 'started job not readable yet');
        return acceptedJob(described.job);
      },
    ),
  ];
}
