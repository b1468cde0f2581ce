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
      // The server hands a workflow's next activity to the worker completing its workflow task (eager dispatch),
      // instead of the worker polling for it: a multi-step job saves a round trip per step. Set the same on a server.
      extraArgs: ['--dynamic-config-value', 'system.enableActivityEagerExecution=true'],
    },
  });
  return {
    address: `127.0.0.1:${port}`,
    namespace: env.namespace ?? 'default',
    uiUrl: uiPort ? `http://127.0.0.1:${uiPort}` : undefined,
    stop: () => env.teardown(),
  };
}
