import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WORKFLOW_INTERCEPTOR_MODULES } from './workflowInterceptors';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { jobMetricsSinks } from '../telemetry/metricsSinks';
import { tracingWorkerOptions } from '../telemetry/tracingState';
import type { TemporalSecurity } from './connectionConfig';

export const PRODUCT_WORKFLOWS_PATH = path.resolve(__dirname, '../../workflows/index.ts');

/** Where webpack keeps what it compiled, for bundles made with `cache: true`. */
export const WORKFLOW_BUNDLE_CACHE_DIR = path.resolve(__dirname, '../../node_modules/.cache/workyard/workflow-bundles');

/**
 * Bundles workflow code once; a worker start (or `npm run build`) does this, never a request. With `cache` webpack
 * keeps its compilation in WORKFLOW_BUNDLE_CACHE_DIR and the next bundle of the same entry recompiles only the files
 * that changed since (it checks every input), which makes a restart's bundling several times cheaper.
 */
export async function bundleWorkflows(
  workflowsPath = PRODUCT_WORKFLOWS_PATH,
  options: { cache?: boolean } = {},
): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: quietBundlerLogger,
    ...(options.cache ? { webpackConfigHook: (config) => ({ ...config, cache: workflowBundleCache(workflowsPath) }) } : {}),
  });
}

/** One cache per entry and bundler setup (webpack keeps it in `<cacheDirectory>/<name>`): the SDK's version stands for the webpack configuration it builds. */
export function workflowBundleCache(workflowsPath: string) {
  const sdkVersion = (JSON.parse(readFileSync(require.resolve('@temporalio/worker/package.json'), 'utf8')) as { version: string }).version;
  const name = createHash('sha256')
    .update(JSON.stringify([workflowsPath, WORKFLOW_INTERCEPTOR_MODULES]))
    .digest('hex')
    .slice(0, 16);
  return { type: 'filesystem' as const, cacheDirectory: WORKFLOW_BUNDLE_CACHE_DIR, name, version: sdkVersion };
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

export interface WorkerOptions {
  address: string;
  /** TLS and API key, the same as the process's clients use; plain when absent. */
  security?: TemporalSecurity;
  namespace: string;
  taskQueue: string;
  bundle: WorkflowBundleWithSourceMap | { codePath: string };
  activities: object;
  maxConcurrentActivityTaskExecutions?: number;
  /** How the worker shows among the queue's pollers (workerIdentity); the SDK's `pid@host` when absent. */
  identity?: string;
}

export async function createWorker(options: WorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.address, ...options.security?.connectOptions() });
  const tracing = tracingWorkerOptions();
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...(options.identity ? { identity: options.identity } : {}), // an undefined identity would replace the SDK's default
    workflowBundle: options.bundle,
    activities: options.activities,
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivityTaskExecutions ?? 20,
    interceptors: tracing.interceptors,
    sinks: { ...jobMetricsSinks(), ...tracing.sinks },
  });
  return { worker, connection };
}
