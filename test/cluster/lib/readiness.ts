import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { persistenceInitialized, type PostgresServer } from './databases';
import { isAlive } from './processes';
import type { ClusterProcess, ClusterState } from './state';

const GRPC_NOT_FOUND = 5;
const GRPC_ALREADY_EXISTS = 6;
const SERVING = 1;
const POLL_MS = 250;

/** The name each service registers its gRPC health status under (the server's own constants). */
const HEALTH_SERVICE: Partial<Record<ClusterProcess['service'], string>> = {
  history: 'temporal.api.workflowservice.v1.HistoryService',
  matching: 'temporal.api.workflowservice.v1.MatchingService',
};
/** The worker service serves no gRPC: its log says when it has started. */
const WORKER_STARTED = /"msg":"worker service started"/;

const codeOf = (err: unknown) => (err as { code?: number }).code;

export async function logTail(proc: ClusterProcess, chars = 3000): Promise<string> {
  const text = await readFile(proc.logPath, 'utf8').catch(() => '');
  return text.slice(-chars);
}

async function logSince(proc: ClusterProcess, offset: number): Promise<string> {
  const text = await readFile(proc.logPath).catch(() => Buffer.alloc(0));
  return text.subarray(offset).toString('utf8');
}

/** Waits for `check` to return true, failing early (with the log's tail) when the process dies. */
async function until(proc: ClusterProcess, what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  let lastError: unknown;
  for (;;) {
    if (!isAlive(proc.pid))
      throw new Error(`${proc.name} (pid ${proc.pid}) exited before ${what}; ${proc.logPath} ends:\n${await logTail(proc)}`);
    try {
      if (await check()) return;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause = lastError ? ` (last error: ${(lastError as Error).message})` : '';
      throw new Error(`${proc.name} (pid ${proc.pid}) not ${what} after ${ms} ms${cause}; ${proc.logPath} ends:\n${await logTail(proc)}`);
    }
    await sleep(POLL_MS);
  }
}

export async function tlsOptions(state: ClusterState) {
  return {
    serverNameOverride: state.tls.serverName,
    serverRootCACertificate: await readFile(state.tls.caPath),
    clientCertPair: { crt: await readFile(state.tls.certPath), key: await readFile(state.tls.keyPath) },
  };
}

/** A connection to the frontend with the cluster's client certificate. */
export async function connectFrontend(state: ClusterState, connectTimeout = 5_000): Promise<Connection> {
  return Connection.connect({ address: state.address, tls: await tlsOptions(state), connectTimeout });
}

async function healthy(proc: ClusterProcess, service: string): Promise<boolean> {
  const connection = Connection.lazy({ address: `127.0.0.1:${proc.grpcPort}` });
  try {
    const response = await connection.withDeadline(Date.now() + 2_000, () => connection.healthService.check({ service }));
    return response.status === SERVING;
  } finally {
    await connection.close();
  }
}

/** The namespace exists (registered here when the server did not create it) and the frontend serves requests in it. */
async function ensureNamespace(connection: Connection, namespace: string): Promise<boolean> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
  } catch (err) {
    if (codeOf(err) !== GRPC_NOT_FOUND) throw err;
    try {
      await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    } catch (registerErr) {
      if (codeOf(registerErr) !== GRPC_ALREADY_EXISTS) throw registerErr;
    }
    return false;
  }
  // A namespace the frontend's cache does not know yet answers NOT_FOUND here.
  await connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
  return true;
}

/**
 * Resolves once the process serves: health SERVING, the frontend answers over TLS, the worker logged its start (in the
 * part of its log after `logOffset`, where this run of it begins).
 */
export async function waitReady(state: ClusterState, proc: ClusterProcess, logOffset: number, ms = 120_000): Promise<void> {
  if (proc.service === 'frontend') {
    await until(proc, 'answering with the namespace', ms, async () => {
      const connection = await connectFrontend(state);
      try {
        return await ensureNamespace(connection, state.namespace);
      } finally {
        await connection.close();
      }
    });
  } else if (proc.service === 'worker') {
    await until(proc, 'started', ms, async () => WORKER_STARTED.test(await logSince(proc, logOffset)));
  } else {
    await until(proc, 'serving', ms, () => healthy(proc, HEALTH_SERVICE[proc.service]!));
  }
}

/** Resolves once the first process has written the records every process would otherwise race to create. */
export async function waitInitialized(proc: ClusterProcess, server: PostgresServer, database: string, ms = 60_000): Promise<void> {
  await until(proc, 'done initializing the database', ms, () => persistenceInitialized(server, database));
}
