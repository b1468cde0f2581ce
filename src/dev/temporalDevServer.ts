import { randomBytes } from 'node:crypto';
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

/** Start-ups to try when another process takes the port between the check and the server's bind. */
const START_ATTEMPTS = 3;

/**
 * A Temporal dev server (`temporal server start-dev`) with the project's search attributes registered. The port is
 * checked free and then bound by the server, so a process starting at the same moment can take it in between; the
 * server then fails to bind while the address answers, from the other process's server. Each start registers a
 * namespace of its own name and asks for it: when it is not there, the server answering is not this one, and the
 * start is tried again on another port.
 */
export async function startTemporalDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const cli = await findTemporalCli(options.log);
  for (let attempt = 1; ; attempt++) {
    const port = await freePort(attempt === 1 ? (options.port ?? 7233) : 0);
    const uiPort = options.ui ? await freePort(attempt === 1 ? (options.uiPort ?? 8233) : 0) : undefined;
    const marker = `workyard-dev-${randomBytes(6).toString('hex')}`;
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
        extraArgs: [...DYNAMIC_CONFIG.flatMap((value) => ['--dynamic-config-value', value]), '--namespace', marker],
      },
    });
    if (await servesNamespace(env, marker)) {
      return {
        address: `127.0.0.1:${port}`,
        namespace: env.namespace ?? 'default',
        uiUrl: uiPort ? `http://127.0.0.1:${uiPort}` : undefined,
        stop: () => env.teardown(),
      };
    }
    await env.teardown().catch(() => undefined);
    if (attempt >= START_ATTEMPTS) throw new Error(`the Temporal dev server did not start: port ${port} answered for another server`);
    options.log?.(`port ${port} was taken by another Temporal server while this one started; trying another port`);
  }
}

async function servesNamespace(env: TestWorkflowEnvironment, namespace: string): Promise<boolean> {
  try {
    await env.client.workflowService.describeNamespace({ namespace });
    return true;
  } catch (err) {
    if ((err as { code?: number }).code === 5) return false; // NOT_FOUND
    throw err;
  }
}
