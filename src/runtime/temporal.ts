import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import { startTemporalDevServer } from '../dev/temporalDevServer';
import { connectTemporal } from '../temporal/client';
import { CliError } from './errors';
import { messageOf } from './shutdown';

export interface StackTemporal {
  address: string;
  namespace: string;
  uiUrl?: string;
  description: string;
  devServer: boolean;
  /** Stops the dev server; absent for TEMPORAL_ADDRESS. */
  stop?: () => Promise<void>;
}

/**
 * TEMPORAL_ADDRESS when set, else a Temporal dev server with its UI, the project's search attributes, and its state
 * in DATA_DIR/temporal.sqlite so that jobs and schedules survive a restart.
 */
export async function startStackTemporal(config: Config, dataDir: string, log: (msg: string) => void): Promise<StackTemporal> {
  if (config.TEMPORAL_ADDRESS) {
    return {
      address: config.TEMPORAL_ADDRESS,
      namespace: config.TEMPORAL_NAMESPACE,
      uiUrl: config.TEMPORAL_UI_URL,
      description: `${config.TEMPORAL_ADDRESS}, namespace ${config.TEMPORAL_NAMESPACE}`,
      devServer: false,
    };
  }
  const dbFilename = path.join(dataDir, 'temporal.sqlite');
  const server = await startTemporalDevServer({ dbFilename, ui: true, log });
  if (server.namespace !== config.TEMPORAL_NAMESPACE) {
    log(`TEMPORAL_NAMESPACE=${config.TEMPORAL_NAMESPACE} is ignored: the dev server serves namespace "${server.namespace}"`);
  }
  return {
    address: server.address,
    namespace: server.namespace,
    uiUrl: config.TEMPORAL_UI_URL ?? server.uiUrl,
    description: `dev server ${server.address}, data in ${dbFilename}`,
    devServer: true,
    stop: () => server.stop(),
  };
}

const GRPC_NOT_FOUND = 5;

/** A client of the namespace, failing with a message that names the variable when the server or namespace is not there. */
export async function connectTemporalChecked(address: string, namespace: string): Promise<Client> {
  let client: Client;
  try {
    client = await connectTemporal(address, namespace);
  } catch (err) {
    throw new CliError(`TEMPORAL_ADDRESS: cannot reach Temporal at ${address}: ${messageOf(err)}`);
  }
  try {
    await client.workflowService.describeNamespace({ namespace });
  } catch (err) {
    await client.connection.close();
    if ((err as { code?: number }).code === GRPC_NOT_FOUND) {
      throw new CliError(`TEMPORAL_NAMESPACE: the namespace "${namespace}" does not exist on ${address}`);
    }
    throw new CliError(`TEMPORAL_ADDRESS: Temporal at ${address} did not answer: ${messageOf(err)}`);
  }
  return client;
}
