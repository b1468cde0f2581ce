import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface PostgresServer {
  host: string;
  port: number;
  user: string;
  password: string;
}

export interface ClusterDatabase {
  name: string;
  /** The embedded schema the SQL tool loaded into it. */
  schema: 'postgresql/v12/temporal' | 'postgresql/v12/visibility';
}

export function postgresServerOf(databaseUrl: string): PostgresServer {
  const url = new URL(databaseUrl);
  return {
    host: decodeURIComponent(url.hostname) || '127.0.0.1',
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username) || 'postgres',
    password: decodeURIComponent(url.password),
  };
}

/** The server's address without credentials, for the cluster's state file. */
export function describeServer(server: PostgresServer): string {
  return `postgres://${encodeURIComponent(server.user)}@${server.host}:${server.port}`;
}

async function admin<T>(server: PostgresServer, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...server, database: 'postgres' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Two fresh, empty databases with unique names: persistence and visibility. */
export async function createClusterDatabases(server: PostgresServer): Promise<ClusterDatabase[]> {
  const base = `wy_cluster_${randomBytes(4).toString('hex')}`;
  const databases: ClusterDatabase[] = [
    { name: base, schema: 'postgresql/v12/temporal' },
    { name: `${base}_vis`, schema: 'postgresql/v12/visibility' },
  ];
  await admin(server, async (client) => {
    for (const { name } of databases) await client.query(`create database "${name}"`);
  });
  return databases;
}

/** Loads the server version's own schema (embedded in the SQL tool) into each database. */
export async function loadSchemas(sqlTool: string, server: PostgresServer, databases: ClusterDatabase[]): Promise<void> {
  for (const database of databases) {
    const common = ['--plugin', 'postgres12', '--ep', server.host, '-p', String(server.port), '-u', server.user, '--db', database.name];
    // The password travels in the environment, not on a command line other users can read.
    const options = { env: { PATH: process.env.PATH, SQL_PASSWORD: server.password }, maxBuffer: 16 * 1024 * 1024 };
    for (const command of [
      ['setup-schema', '-v', '0.0'],
      ['update-schema', '--schema-name', database.schema],
    ]) {
      try {
        await run(sqlTool, [...common, ...command], options);
      } catch (err) {
        const { stdout, stderr } = err as { stdout?: string; stderr?: string };
        const output = `${stdout ?? ''}${stderr ?? ''}`.trim().slice(-2000);
        throw new Error(`${sqlTool} ${command[0]} on ${database.name} failed: ${output}`, { cause: err });
      }
    }
  }
}

export async function dropClusterDatabases(server: PostgresServer, names: string[]): Promise<void> {
  await admin(server, async (client) => {
    for (const name of names) {
      if (!/^wy_cluster_[0-9a-f]+(?:_vis)?$/.test(name)) throw new Error(`refusing to drop ${name}: not a cluster database`);
      await client.query(`drop database if exists "${name}" with (force)`);
    }
  });
}

/**
 * Whether the server has written its first records (cluster metadata, the system namespace). Processes that start on
 * an empty database all race to write them, and the losers exit; after the first process has, the rest start safely.
 */
export async function persistenceInitialized(server: PostgresServer, database: string): Promise<boolean> {
  const client = new pg.Client({ ...server, database });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select (select count(*) from cluster_metadata_info)::int as clusters,
              (select count(*) from namespaces where name = 'temporal-system')::int as namespaces`,
    );
    return rows[0].clusters > 0 && rows[0].namespaces > 0;
  } finally {
    await client.end();
  }
}
