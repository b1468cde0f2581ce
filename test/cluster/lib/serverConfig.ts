import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ClusterCerts } from './certs';
import type { ClusterDatabase, PostgresServer } from './databases';

const DEPLOY_DIR = path.resolve(__dirname, '../../../deploy/temporal');
export const SERVER_CONFIG_TEMPLATE = path.join(DEPLOY_DIR, 'server-postgres.yaml');
export const DYNAMIC_CONFIG_FILE = path.join(DEPLOY_DIR, 'dynamicconfig.yaml');

export type ConfigValues = Record<string, string | number>;

/**
 * Fills the template's ${NAME} placeholders. Inside a single-quoted YAML string a value may hold anything (quotes are
 * doubled); elsewhere it must be a plain token (a number, a level name), so that no value can change the YAML's shape.
 */
export function renderServerConfig(template: string, values: ConfigValues): string {
  return template.replace(/(')?\$\{([A-Z0-9_]+)\}/g, (_match, quote: string | undefined, name: string) => {
    if (!(name in values)) throw new Error(`server config: no value for \${${name}}`);
    const value = String(values[name]);
    if (quote) return `'${value.replace(/'/g, "''")}`;
    if (!/^[A-Za-z0-9._:/-]+$/.test(value)) throw new Error(`server config: ${name} must be a plain value, not ${JSON.stringify(value)}`);
    return value;
  });
}

export async function readServerConfigTemplate(): Promise<string> {
  return readFile(SERVER_CONFIG_TEMPLATE, 'utf8');
}

export interface ClusterConfigInput {
  server: PostgresServer;
  /** Persistence, then visibility. */
  databases: ClusterDatabase[];
  certs: ClusterCerts;
  /** By process name: `frontend`, `history-1` (the history ports every other process's file names), `matching`, `worker`. */
  ports: Record<string, { grpcPort: number; membershipPort: number }>;
  frontendAddress: string;
}

// Connections per process. The CI PostgreSQL (max_connections 100) also serves the test suites' own databases.
const POOLS = { SQL_MAX_CONNS: 5, SQL_MAX_IDLE_CONNS: 2, SQL_VIS_MAX_CONNS: 2, SQL_VIS_MAX_IDLE_CONNS: 2 };

/** The values every process's file shares; a second process of a service overrides its own ports. */
export function clusterConfigValues({ server, databases, certs, ports, frontendAddress }: ClusterConfigInput): ConfigValues {
  const host = '127.0.0.1';
  const portValues = (prefix: string, name: string) => ({
    [`${prefix}_GRPC_PORT`]: ports[name].grpcPort,
    [`${prefix}_MEMBERSHIP_PORT`]: ports[name].membershipPort,
  });
  return {
    LOG_LEVEL: 'info',
    NUM_HISTORY_SHARDS: 4,
    DBNAME: databases[0].name,
    VISIBILITY_DBNAME: databases[1].name,
    POSTGRES_SEEDS: server.host,
    DB_PORT: server.port,
    POSTGRES_USER: server.user,
    POSTGRES_PWD: server.password,
    ...POOLS,
    BROADCAST_ADDRESS: host,
    BIND_ON_IP: host,
    TEMPORAL_TLS_FRONTEND_CERT: certs.server.certPath,
    TEMPORAL_TLS_FRONTEND_KEY: certs.server.keyPath,
    TEMPORAL_TLS_CLIENT_CA_CERT: certs.caPath,
    TEMPORAL_TLS_SYSTEM_WORKER_CERT: certs.systemWorker.certPath,
    TEMPORAL_TLS_SYSTEM_WORKER_KEY: certs.systemWorker.keyPath,
    TEMPORAL_TLS_FRONTEND_SERVER_NAME: certs.serverName,
    TEMPORAL_TLS_SERVER_CA_CERT: certs.caPath,
    FRONTEND_ADDRESS: frontendAddress,
    DYNAMIC_CONFIG_FILE_PATH: DYNAMIC_CONFIG_FILE,
    ...portValues('FRONTEND', 'frontend'),
    ...portValues('HISTORY', 'history-1'),
    ...portValues('MATCHING', 'matching'),
    ...portValues('WORKER', 'worker'),
  };
}
