import pg from 'pg';
import { clusterLocationFor } from '../dev/clusterLocation';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../dev/embeddedPostgres';
import { EmbeddedPostgresError } from '../dev/embeddedPostgresError';
import { postgresRunAs } from '../dev/postgresUser';
import { CliError } from './errors';

/** The database the embedded server holds the app's tables in. */
export const EMBEDDED_DATABASE = 'workyard';

export interface StackDatabase {
  url: string;
  /** How to say where the data is, for the start-up banner (never a password). */
  description: string;
  embedded: boolean;
  /** Stops the embedded server; absent for DATABASE_URL. */
  stop?: () => Promise<void>;
}

/**
 * DATABASE_URL when set (its database is created if missing), else an embedded PostgreSQL server that keeps its data
 * across restarts, in DATA_DIR/postgres or, when the server's user cannot reach that, where clusterLocationFor says.
 */
export async function startStackDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  log: (msg: string) => void,
): Promise<StackDatabase> {
  if (databaseUrl) {
    await ensureDatabaseExists(databaseUrl, log);
    return { url: databaseUrl, description: redactUrl(databaseUrl), embedded: false };
  }
  let cluster: Awaited<ReturnType<typeof clusterLocationFor>>;
  let server: EmbeddedDatabase;
  try {
    cluster = await clusterLocationFor(dataDir, await postgresRunAs());
    server = await startEmbeddedPostgres(cluster.dir, { persistent: true, log });
  } catch (err) {
    if (err instanceof EmbeddedPostgresError) throw new CliError(`embedded PostgreSQL: ${err.message}`);
    throw err;
  }
  const url = withDatabaseName(server.serverUrl, EMBEDDED_DATABASE);
  try {
    await ensureDatabaseExists(url, log);
  } catch (err) {
    await server.stop();
    throw err;
  }
  const where = cluster.recordFile
    ? `data in ${cluster.dir} (DATA_DIR is out of the postgres user's reach; ${cluster.recordFile} names it)`
    : `data in ${cluster.dir}`;
  return { url, description: `embedded, ${where} (${redactUrl(url)})`, embedded: true, stop: () => server.stop() };
}

/** Creates the database named in the URL when the server does not have it yet. */
export async function ensureDatabaseExists(url: string, log: (msg: string) => void): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw databaseError(url, err);
  } finally {
    await probe.end().catch(() => undefined);
  }
  const name = databaseNameOf(url);
  const admin = new pg.Client({ connectionString: withDatabaseName(url, 'postgres') });
  try {
    await admin.connect();
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
    log(`created database "${name}"`);
  } catch (err) {
    if ((err as { code?: string }).code !== '42P04') throw databaseError(url, err); // 42P04: created meanwhile
  } finally {
    await admin.end().catch(() => undefined);
  }
}

function databaseError(url: string, err: unknown): CliError {
  return new CliError(`DATABASE_URL: cannot use ${redactUrl(url)}: ${(err as Error).message}`);
}

export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return parsed.toString();
}

/** The URL without its password, for logs and banners. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
