import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectTemporal } from '../../src/temporal/client';
import { loadTemporalConnectionSettings } from '../../src/temporal/connectionConfig';
import { setupNamespace } from '../../src/temporal/namespaceSetup';
import { startCluster, stopCluster, type ClusterState } from '../../test/cluster/launcher';
import { findServerBinaries } from '../../test/cluster/lib/binaries';
import { clusterEnv } from '../../test/cluster/lib/state';
import type { BenchEnv } from './env';

/** One Temporal the cluster scenario measures on: the bench's dev server, or a five-process cluster. */
export interface Target {
  label: string;
  /** The bench env with this Temporal's address and client (the database is the bench's). */
  env: BenchEnv;
  /** TEMPORAL_* for the bench's child processes (API servers, workers): address, namespace, TLS settings. */
  childEnv: Record<string, string>;
  close(): Promise<void>;
}

/** The bench env's in-memory dev server (plain gRPC). */
export function devServerTarget(env: BenchEnv): Target {
  return {
    label: 'dev server',
    env,
    childEnv: { TEMPORAL_ADDRESS: env.temporal.address, TEMPORAL_NAMESPACE: env.temporal.namespace },
    close: async () => undefined,
  };
}

/** Why the cluster cannot be started here (no server binaries, no PostgreSQL server for its databases), or null. */
export async function clusterUnavailable(): Promise<string | null> {
  if (!process.env.DATABASE_URL) return 'DATABASE_URL is not set: the cluster needs a PostgreSQL server for its databases';
  try {
    await findServerBinaries();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * A fresh five-process cluster (test/cluster/launcher.ts: PostgreSQL persistence, TLS with client certificates),
 * its namespace set up as `temporal setup` does, and a client connected as the product connects (TLS settings from
 * the TEMPORAL_TLS_* variables). Closing stops the cluster and drops its databases.
 */
export async function startClusterTarget(env: BenchEnv): Promise<Target & { startupMs: number }> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'wy-bench-cluster-'));
  const started = performance.now();
  let state: ClusterState | undefined;
  try {
    state = await startCluster(stateDir);
    const { TEMPORAL_CLUSTER_STATE: _state, ...childEnv } = clusterEnv(state);
    const { address, namespace, security } = loadTemporalConnectionSettings(childEnv);
    const client = await connectTemporal(address!, namespace, security);
    await setupNamespace(client, namespace);
    const startupMs = performance.now() - started;
    const running = state;
    return {
      label: 'cluster',
      env: { ...env, client, temporal: { address: address!, namespace, stop: async () => undefined } },
      childEnv,
      startupMs,
      async close() {
        await client.connection.close();
        await stopCluster(running);
        await rm(stateDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (state) await stopCluster(state).catch(() => undefined);
    console.error(`the cluster's logs: ${path.join(stateDir, 'logs')}`);
    throw err;
  }
}
