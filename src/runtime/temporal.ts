import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import { startTemporalDevServer } from '../dev/temporalDevServer';
import { connectTemporal } from '../temporal/client';
import { temporalErrorText } from '../temporal/errorText';
import { checkNamespace, SETUP_COMMAND, type NamespaceCheck } from '../temporal/namespaceCheck';
import { CliError } from './errors';

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

/** A client of the namespace, failing with a message that names the variable when the server cannot be reached. */
export async function connectTemporalUnchecked(address: string, namespace: string): Promise<Client> {
  try {
    return await connectTemporal(address, namespace);
  } catch (err) {
    throw new CliError(`TEMPORAL_ADDRESS: cannot reach Temporal at ${address}: ${temporalErrorText(err)}`);
  }
}

/**
 * A client of the namespace, once the namespace is there with every search attribute the jobs set (two RPCs). Fails
 * with a message that names the variable when the server cannot be reached, and each missing part (or an attribute of
 * another type) with the command that creates them.
 */
export async function connectTemporalChecked(address: string, namespace: string): Promise<Client> {
  const client = await connectTemporalUnchecked(address, namespace);
  let check: NamespaceCheck;
  try {
    check = await checkNamespace(client, namespace);
  } catch (err) {
    await client.connection.close();
    throw new CliError(`TEMPORAL_ADDRESS: Temporal at ${address} did not answer: ${temporalErrorText(err)}`);
  }
  if (!check.ok) {
    await client.connection.close();
    throw new CliError(
      `TEMPORAL_NAMESPACE: namespace "${namespace}" on ${address} is not ready: ${check.problems.join('; ')}. ` +
        `Run \`${SETUP_COMMAND}\` with the same TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE to create what is missing.`,
    );
  }
  return client;
}
