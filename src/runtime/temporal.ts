import path from 'node:path';
import { status } from '@grpc/grpc-js';
import { isGrpcServiceError, type Client } from '@temporalio/client';
import type { Config } from '../config';
import { startTemporalDevServer } from '../dev/temporalDevServer';
import { connectTemporal } from '../temporal/client';
import {
  loadTemporalConnectionSettings,
  TemporalConnectionConfigError,
  TemporalSecurity,
  type TemporalConnectionSettings,
} from '../temporal/connectionConfig';
import { temporalErrorText } from '../temporal/errorText';
import { diagnoseTls } from '../temporal/tlsDiagnosis';
import { checkNamespace, SETUP_COMMAND, type NamespaceCheck } from '../temporal/namespaceCheck';
import { CliError } from './errors';

/** Where a process connects: every client and the worker of the process use the same target. */
export interface TemporalTarget {
  address: string;
  namespace: string;
  /** TLS and API key; never logged (its summary is). */
  security: TemporalSecurity;
}

export interface StackTemporal extends TemporalTarget {
  uiUrl?: string;
  description: string;
  devServer: boolean;
  /** Stops the dev server; absent for TEMPORAL_ADDRESS. */
  stop?: () => Promise<void>;
}

/** The Temporal connection settings of `env` (src/temporal/connectionConfig.ts); one that cannot be used is a CliError naming its variable. */
export function temporalSettingsOf(env: NodeJS.ProcessEnv): TemporalConnectionSettings {
  try {
    return loadTemporalConnectionSettings(env);
  } catch (err) {
    if (err instanceof TemporalConnectionConfigError) throw new CliError(err.message);
    throw err;
  }
}

/**
 * Without an address the process uses a dev server (its own, or the running stack's), which speaks plain gRPC: TLS or
 * API key settings then mean the address was forgotten, and are refused rather than ignored.
 */
export function refuseSecurityWithoutAddress(settings: TemporalConnectionSettings, server: string): void {
  if (settings.security.isPlain) return;
  throw new CliError(
    `${settings.security.origin.join(', ')}: TLS or an API key is configured but no address (TEMPORAL_ADDRESS or a profile's), ` +
      `so ${server} would be used, and it speaks plain gRPC. Set TEMPORAL_ADDRESS to the server these settings are for, or unset them`,
  );
}

/**
 * The configured address when there is one, else a Temporal dev server with its UI, the project's search attributes,
 * and its state in DATA_DIR/temporal.sqlite so that jobs and schedules survive a restart.
 */
export async function startStackTemporal(
  config: Config,
  settings: TemporalConnectionSettings,
  dataDir: string,
  log: (msg: string) => void,
): Promise<StackTemporal> {
  if (settings.address) {
    return {
      address: settings.address,
      namespace: settings.namespace,
      security: settings.security,
      uiUrl: config.TEMPORAL_UI_URL,
      description: `${settings.address}, namespace ${settings.namespace} (${settings.security.summary})`,
      devServer: false,
    };
  }
  refuseSecurityWithoutAddress(settings, 'a dev server');
  const dbFilename = path.join(dataDir, 'temporal.sqlite');
  const server = await startTemporalDevServer({ dbFilename, ui: true, log });
  if (server.namespace !== settings.namespace) {
    log(`TEMPORAL_NAMESPACE=${settings.namespace} is ignored: the dev server serves namespace "${server.namespace}"`);
  }
  return {
    address: server.address,
    namespace: server.namespace,
    security: new TemporalSecurity(),
    uiUrl: config.TEMPORAL_UI_URL ?? server.uiUrl,
    description: `dev server ${server.address}, data in ${dbFilename}`,
    devServer: true,
    stop: () => server.stop(),
  };
}

/**
 * A client of the namespace, failing with a message that names the variable when the server cannot be reached; over
 * TLS, with the handshake's own reason (an untrusted certificate, a missing client certificate, a plain server).
 */
export async function connectTemporalUnchecked(target: TemporalTarget): Promise<Client> {
  try {
    return await connectTemporal(target.address, target.namespace, target.security);
  } catch (err) {
    throw new CliError(await unreachableText(target, err));
  }
}

async function unreachableText({ address, security }: TemporalTarget, err: unknown): Promise<string> {
  const cause = temporalErrorText(err);
  if (!security.tlsOn) return `TEMPORAL_ADDRESS: cannot reach Temporal at ${address}: ${cause}`;
  const tlsFrom = security.origin.join(', ');
  const diagnosis = await diagnoseTls(address, security.connectOptions().tls);
  if (!diagnosis)
    return `TEMPORAL_ADDRESS: cannot reach Temporal at ${address} over TLS (${security.summary}; set by ${tlsFrom}): ${cause}`;
  return `${diagnosis.variable ?? tlsFrom}: TLS to Temporal at ${address} failed (${security.summary}; set by ${tlsFrom}): ${diagnosis.problem}`;
}

/**
 * A client of the namespace, once the namespace is there with every search attribute the jobs set (two RPCs). Fails
 * with a message that names the variable when the server cannot be reached, and each missing part (or an attribute of
 * another type) with the command that creates them.
 */
export async function connectTemporalChecked(target: TemporalTarget): Promise<Client> {
  const { address, namespace } = target;
  const client = await connectTemporalUnchecked(target);
  let check: NamespaceCheck;
  try {
    check = await checkNamespace(client, namespace);
  } catch (err) {
    await client.connection.close();
    if (isGrpcServiceError(err) && (err.code === status.UNAUTHENTICATED || err.code === status.PERMISSION_DENIED))
      throw new CliError(
        `${target.security.origin.join(', ') || 'TEMPORAL_API_KEY'}: Temporal at ${address} refused the credentials for namespace ` +
          `${namespace}: ${temporalErrorText(err)}`,
      );
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
