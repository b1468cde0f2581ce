import { readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ClusterDatabase } from './databases';

export type ServiceName = 'frontend' | 'history' | 'matching' | 'worker';

export interface ClusterProcess {
  service: ServiceName;
  /** Unique within the cluster: `frontend`, `history-1`, `history-2`, `matching`, `worker`. */
  name: string;
  pid: number;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  logPath: string;
  grpcPort: number;
  membershipPort: number;
}

export interface ClusterState {
  stateDir: string;
  serverVersion: string;
  /** host:port of the frontend (TLS, client certificate required). */
  address: string;
  namespace: string;
  tls: { caPath: string; certPath: string; keyPath: string; serverName: string };
  processes: ClusterProcess[];
  /** The PostgreSQL server holding the databases, without credentials (DATABASE_URL supplies the password). */
  postgres: string;
  databases: ClusterDatabase[];
  startedAt?: string;
  startupMs?: number;
}

export const STATE_FILE = 'cluster.json';
export const ENV_FILE = 'cluster.env';

export const stateFile = (stateDir: string) => path.join(stateDir, STATE_FILE);
export const envFile = (stateDir: string) => path.join(stateDir, ENV_FILE);

/** Written whole and renamed into place, so a reader never sees half a file. */
export async function saveState(state: ClusterState): Promise<void> {
  const file = stateFile(state.stateDir);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** Reads `<stateDir>/cluster.json`, or the file itself when given one (TEMPORAL_CLUSTER_STATE). */
export function loadState(stateDirOrFile: string): ClusterState {
  const file = stateDirOrFile.endsWith('.json') ? stateDirOrFile : stateFile(stateDirOrFile);
  return JSON.parse(readFileSync(file, 'utf8')) as ClusterState;
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The variables @temporalio/envconfig (and the temporal CLI) read, as shell `export` lines. */
export function clusterEnv(state: ClusterState): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: state.address,
    TEMPORAL_NAMESPACE: state.namespace,
    TEMPORAL_TLS_CLIENT_CERT_PATH: state.tls.certPath,
    TEMPORAL_TLS_CLIENT_KEY_PATH: state.tls.keyPath,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: state.tls.caPath,
    TEMPORAL_TLS_SERVER_NAME: state.tls.serverName,
    TEMPORAL_CLUSTER_STATE: stateFile(state.stateDir),
  };
}

export async function writeEnvFile(state: ClusterState): Promise<string> {
  const lines = Object.entries(clusterEnv(state)).map(([name, value]) => `export ${name}=${shellQuote(value)}`);
  const file = envFile(state.stateDir);
  await writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  return file;
}

export async function removeEnvFile(stateDir: string): Promise<void> {
  await rm(envFile(stateDir), { force: true });
}
