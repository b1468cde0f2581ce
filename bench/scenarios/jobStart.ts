import { randomUUID } from 'node:crypto';
import { createMetrics } from '../../src/http/metrics';
import { startJob } from '../../src/temporal/jobs';
import { defineWorkflow } from '../../workflows/defineWorkflow';
import type { BenchEnv } from '../lib/env';
import { runLoad } from '../lib/load';
import type { ScenarioResult } from '../lib/report';

const STARTS = 400;
const CONCURRENCY = 8;
// Never executed: no worker polls the bench task queue, so only the start is measured.
const benchNoop = defineWorkflow<[], never>('benchNoop', 'bench');

/** Starting a job through the job helper (ids, search attributes, memo, metrics) vs a bare client.workflow.start. */
export async function jobStart(env: BenchEnv): Promise<ScenarioResult> {
  const temporal = { client: env.client, namespace: env.temporal.namespace, taskQueue: `bench-${randomUUID()}` };
  const metrics = createMetrics(false);
  const accountId = randomUUID();
  const options = { concurrency: CONCURRENCY, maxOperations: STARTS, warmupOperations: 20 };

  // Each side warms up first (warmupOperations), so neither measures a cold server or connection.
  const baseline = await runLoad(async () => {
    await env.client.workflow.start(benchNoop.workflowType, { workflowId: `raw-${randomUUID()}`, taskQueue: temporal.taskQueue, args: [] });
  }, options);
  const ours = await runLoad(async () => {
    await startJob(temporal, metrics, benchNoop, {
      accountId,
      args: [],
      requestId: randomUUID(),
      searchAttributes: { ContentId: accountId },
    });
  }, options);
  return {
    name: `job-start (${STARTS} starts, ${CONCURRENCY} in flight)`,
    ours,
    baseline,
    baselineLabel: 'raw client.workflow.start',
    goalRatio: 0.7,
  };
}
