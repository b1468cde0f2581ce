import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

/** The probe workflow alone, without the product's workflow interceptors (their activities are not the probe worker's). */
export function bundleProbeWorkflow(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: path.resolve(__dirname, 'probeWorkflow.ts'),
    logger: {
      log: () => undefined,
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: console.error,
    },
  });
}
