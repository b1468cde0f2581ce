import { TestWorkflowEnvironment } from '@temporalio/testing';
import { SEARCH_ATTRIBUTE_KEYS } from '../temporal/searchAttributes';
import { freePort } from './ports';
import { findTemporalCli } from './temporalCli';

export interface DevServer {
  address: string;
  namespace: string;
  uiUrl?: string;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  /** SQLite file that keeps workflows across restarts; in memory when absent. */
  dbFilename?: string;
  ui?: boolean;
  port?: number;
  uiPort?: number;
  log?: (msg: string) => void;
}

export const DYNAMIC_CONFIG = [
  'system.enableActivityEagerExecution=true',
  'matching.useNewMatcher=true',
  'matching.enableFairness=true',
  // Priority and fairness hold within a task-queue partition; one server process gains nothing from four of them, and
  // with one a backlog is dispatched in exact priority and fairness order.
  'matching.numTaskqueueReadPartitions=1',
  'matching.numTaskqueueWritePartitions=1',
  // A production cluster's limit on workflow, schedule and other ids (the dev server's default allows 1,000).
  'limit.maxIDLength=255',
];

/** A Temporal dev server (`temporal server start-dev`) with the project's search attributes registered. */
export async function startTemporalDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const cli = await findTemporalCli(options.log);
  const port = await freePort(options.port ?? 7233);
  const uiPort = options.ui ? await freePort(options.uiPort ?? 8233) : undefined;
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: cli ? { type: 'existing-path', path: cli.path } : { type: 'cached-download' },
      ip: '127.0.0.1',
      port,
      ui: options.ui ?? false,
      uiPort,
      dbFilename: options.dbFilename,
      searchAttributes: SEARCH_ATTRIBUTE_KEYS,
      log: { format: 'json', level: 'error' },
      // The same dynamic config as deploy/temporal/dynamicconfig.yaml (docker-compose's server):
      // - eager activity dispatch: the server hands a workflow's next activity to the worker completing its workflow
      //   task instead of the worker polling for it, so a multi-step job saves a round trip per step;
      // - task-queue priority and fairness (src/temporal/jobPriority.ts): the priority-aware matcher, and fairness
      //   (server 1.29+), so a backlog of one account's tasks is dispatched round-robin with the other accounts'.
      extraArgs: DYNAMIC_CONFIG.flatMap((value) => ['--dynamic-config-value', value]),
    },
  });
  return {
    address: `127.0.0.1:${port}`,
    namespace: env.namespace ?? 'default',
    uiUrl: uiPort ? `http://127.0.0.1:${uiPort}` : undefined,
    stop: () => env.teardown(),
  };
}
