import { randomBytes, randomUUID } from 'node:crypto';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import type { WorkflowContract } from '../../workflows/defineWorkflow';
import { researchContract, type ResearchInput } from '../../workflows/research.contract';
import { startJob, type JobStartOptions } from '../../src/temporal/jobs';
import { harness } from '../helpers/harness';
import { settled } from './jobTestKit';

/**
 * A research run of the account that fails: its item does not exist, so the run's first step (reading the item) fails
 * with the coded, non-retryable `content_not_found`. Answers the job id and the input it was started with.
 */
export async function failedResearch(
  accountId: string,
  token: string,
  options: JobStartOptions = {},
): Promise<{ id: string; input: ResearchInput }> {
  const { deps } = harness();
  const input: ResearchInput = {
    accountId,
    contentId: randomUUID(),
    topic: 'Replayed research',
    keyword: 'replay keyword',
    maxSources: 2,
    requestId: 'replay-test',
  };
  const started = await startJob(deps.temporal, deps.metrics, researchContract, {
    accountId,
    args: [input],
    requestId: 'replay-test',
    searchAttributes: { ContentId: input.contentId ?? undefined },
    options,
  });
  const done = await settled(token, started.id, 20_000);
  if (done.body.status !== 'failed') throw new Error(`the research run did not fail: ${done.text}`);
  return { id: started.id, input };
}

/** Starts a job of `kind` running `workflowType` for the account, on the given task queue (an idle one keeps it running). */
export async function startOfKind(
  accountId: string,
  contract: WorkflowContract,
  args: unknown[],
  taskQueue = harness().deps.temporal.taskQueue,
): Promise<string> {
  const { deps } = harness();
  const started = await startJob({ ...deps.temporal, taskQueue }, deps.metrics, contract, { accountId, args, requestId: 'replay-test' });
  return started.id;
}

/** A task queue no worker polls: a job started there stays running until terminated. */
export const idleTaskQueue = () => `idle-${randomBytes(4).toString('hex')}`;

/** The arguments a job's latest run was started with. */
export async function startArgsOf(workflowId: string): Promise<unknown[]> {
  const { client, deps } = harness();
  const history = await client.workflowService.getWorkflowExecutionHistory({
    namespace: deps.temporal.namespace,
    execution: { workflowId },
    maximumPageSize: 1,
  });
  const started = history.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  return decodeArrayFromPayloads(client.workflow.options.loadedDataConverter, started?.input?.payloads);
}
