import { sleep, workflowInfo } from '@temporalio/workflow';
import type { QuickJobInput, QuickJobResult } from './quickJob.contract';

/** Test-only: returns its input and its run id (so a test can tell one run from two), after an optional delay. */
export async function quickJobWorkflow(input: QuickJobInput): Promise<QuickJobResult> {
  if (input.delayMs) await sleep(input.delayMs);
  return { value: input.value, run_id: workflowInfo().runId };
}
