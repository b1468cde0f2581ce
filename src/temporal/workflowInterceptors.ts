import path from 'node:path';

/**
 * Workflow interceptor modules bundled with every workflow (each module exports `interceptors`). They run inside the
 * workflow sandbox, so they follow the same determinism rules as workflow code.
 */
export const WORKFLOW_INTERCEPTOR_MODULES: string[] = [
  path.resolve(__dirname, '../../workflows/metricsInterceptor.ts'),
  path.resolve(__dirname, '../../workflows/jobEventsInterceptor.ts'),
  path.resolve(__dirname, '../telemetry/tracingWorkflowInterceptors.ts'),
];
