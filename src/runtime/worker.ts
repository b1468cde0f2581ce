import { access } from 'node:fs/promises';
import path from 'node:path';
import { DefaultLogger, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../app/activities';
import { SCHEDULES } from '../app/schedules';
import type { Config } from '../config';
import type { Knex } from '../db/knex';
import type { Logger } from '../logger';
import { temporalErrorText } from '../temporal/errorText';
import type { TemporalSecurity } from '../temporal/connectionConfig';
import type { ScheduleEntry } from '../temporal/schedules';
import { bundleWorkflows, createWorker } from '../temporal/worker';
import { workerFingerprint, workerIdentity, type WorkerFingerprint } from '../temporal/workerFingerprint';
import { recordFingerprint } from '../temporal/workerFingerprintStore';
import { installRuntimeWithMetrics } from '../telemetry/metricsTemporal';
import { workerRegistry } from '../telemetry/metrics';
import { primeKnownSeries } from '../telemetry/metricsKnownSeries';
import { startMetricsServer, type RunningMetricsServer } from '../telemetry/metricsServer';
import { CliError } from './errors';
import type { Lifecycle } from './shutdown';

export type WorkflowCode = WorkflowBundleWithSourceMap | { codePath: string };

/**
 * Temporal's native runtime, once per process: its log lines go through our logger, it installs no signal
 * handlers of its own (by default it shuts workers down on SIGINT/SIGTERM, before the API has drained), and its
 * metrics are appended to this process's `/metrics` (src/telemetry/metricsTemporal.ts).
 */
export async function installTemporalRuntime(logger: Logger): Promise<void> {
  await installRuntimeWithMetrics({
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', ({ level, message, meta }) => {
      logger[level === 'ERROR' ? 'error' : 'warn']({ ...meta, source: 'temporal' }, message);
    }),
  });
}

/**
 * WORKFLOW_BUNDLE_PATH when set (built by `npm run build`), else a bundle of workflows/ made now; outside production
 * through webpack's cache, so a restart after an edit bundles only what changed.
 */
export async function loadWorkflowCode(config: Config): Promise<{ code: WorkflowCode; source: string }> {
  if (!config.WORKFLOW_BUNDLE_PATH) {
    return { code: await bundleWorkflows(undefined, { cache: config.NODE_ENV !== 'production' }), source: 'bundled at start' };
  }
  const codePath = path.resolve(config.WORKFLOW_BUNDLE_PATH);
  await access(codePath).catch(() => {
    throw new CliError(`WORKFLOW_BUNDLE_PATH: ${codePath} does not exist; build it with \`npm run build\` or unset the variable`);
  });
  return { code: { codePath }, source: codePath };
}

/** How long running workflow and activity tasks get to finish once a stop begins. */
export const WORKER_STOP_MS = 60_000;

export interface RunningWorker {
  /** Settles when the worker stops; rejects when it fails while running. */
  done: Promise<void>;
  /** Stops polling, lets running tasks finish, and closes the worker's connection. */
  stop(): Promise<void>;
  /** Its provider settings, advertised in its Temporal identity. */
  fingerprint: WorkerFingerprint;
}

export async function startWorker(options: {
  config: Config;
  db: Knex;
  logger: Logger;
  address: string;
  security: TemporalSecurity;
  namespace: string;
  taskQueue: string;
  code: WorkflowCode;
}): Promise<RunningWorker> {
  const { config, db, logger } = options;
  const fingerprint = workerFingerprint(config);
  await recordFingerprint(db, fingerprint.fingerprint, fingerprint.providers);
  const { worker, connection } = await createWorker({
    address: options.address,
    security: options.security,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    bundle: options.code,
    activities: createActivities({ config, db, logger }),
    identity: workerIdentity(fingerprint.fingerprint),
  });
  const done = worker.run();
  done.catch(() => undefined); // observed by the caller through `done`; never an unhandled rejection
  return {
    done,
    fingerprint,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch((err) => logger.warn({ err: String(err) }, 'the worker stopped with an error'));
      await connection.close();
    },
  };
}

/**
 * The worker command's `/metrics` on HOST:METRICS_PORT (process, domain and Temporal SDK series), or null when
 * METRICS_PORT is 0. The series known in advance (the schedules' runs, …) start at 0. A port in use is a start-up
 * error naming the variable.
 */
export async function startWorkerMetrics(
  config: Pick<Config, 'HOST' | 'METRICS_PORT'>,
  schedules: ScheduleEntry[] = SCHEDULES,
): Promise<RunningMetricsServer | null> {
  if (config.METRICS_PORT === 0) return null;
  primeKnownSeries(schedules.map((s) => s.name));
  try {
    return await startMetricsServer(workerRegistry(), config.HOST, config.METRICS_PORT);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new CliError(
        `METRICS_PORT: ${config.HOST}:${config.METRICS_PORT} is already in use; set another port, or 0 to turn the worker's metrics off`,
      );
    throw err;
  }
}

/** Registers the worker's stop step, and stops the whole process when the worker stops or fails by itself. */
export function superviseWorker(worker: RunningWorker, lifecycle: Lifecycle): void {
  lifecycle.onShutdown('worker', () => worker.stop(), WORKER_STOP_MS);
  worker.done.then(
    () => lifecycle.requestStop('the worker stopped'),
    (err) => lifecycle.requestStop(`the worker failed: ${temporalErrorText(err)}`),
  );
}
