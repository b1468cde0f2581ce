import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { CLUSTER_RECORD, CLUSTERS_DIR } from '../../src/dev/clusterLocation';
import { databaseNameOf, withDatabaseName } from '../../src/runtime/database';
import { harness } from '../helpers/harness';
import { childEnv, processesMentioning, removeTempDirs, RunningMain, tempDir } from './child';

const API_LINE = /^ {2}API +(http:\/\/\S+)/m;
const OWNER_TOKEN = /Owner session token[^\n]*?(wys_\S+)/;
const SHUTDOWN_STEPS = [
  'stopping: API server',
  'stopped: worker',
  'stopped: Temporal client',
  'stopped: database pool',
  'shutdown complete',
];

/** Starts `start` and waits for its banner; the caller stops it. */
async function startStack(env: NodeJS.ProcessEnv, running: RunningMain[]): Promise<{ stack: RunningMain; apiUrl: string }> {
  const stack = new RunningMain(['start'], env);
  running.push(stack);
  const [, apiUrl] = await stack.waitFor(API_LINE, 90_000);
  await stack.waitFor(/Press Ctrl-C to stop/, 10_000);
  return { stack, apiUrl };
}

async function stopWithSigterm(stack: RunningMain): Promise<string> {
  const started = Date.now();
  stack.signal('SIGTERM');
  const result = await stack.exited;
  assert.equal(result.code, 0, `exit ${result.code}/${result.signal}\n${result.stdout}\n${result.stderr}`);
  assert.ok(Date.now() - started < 10_000, `stopping took ${Date.now() - started} ms`);
  let at = -1;
  for (const step of SHUTDOWN_STEPS) {
    const next = result.stdout.indexOf(step, at + 1);
    assert.ok(next > at, `"${step}" missing or out of order in the shutdown log:\n${result.stdout}`);
    at = next;
  }
  return result.stdout;
}

async function getJson(url: string, token?: string) {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as any };
}

describe('all-in-one start', function () {
  this.timeout(180_000);
  const running: RunningMain[] = [];
  after(removeTempDirs);
  afterEach(async () => {
    await Promise.all(running.splice(0).map((stack) => stack.kill()));
  });

  it('on a fresh DATA_DIR runs embedded Postgres and a dev server, prints the first credentials once, keeps them across a restart and stops cleanly on SIGTERM', async () => {
    const dataDir = await tempDir('wy-start-');
    const env = childEnv({ DATA_DIR: dataDir, PORT: '0' });

    const first = await startStack(env, running);
    assert.match(first.stack.stdout, /Temporal UI +http:\/\/127\.0\.0\.1:\d+/);
    const ownerToken = first.stack.stdout.match(OWNER_TOKEN)?.[1];
    assert.ok(ownerToken, `no owner token in the first start's banner:\n${first.stack.stdout}`);
    assert.match(first.stack.stdout, /Agent key \(every permission\): +wyk_/);
    assert.deepEqual(await getJson(`${first.apiUrl}/healthz`), { status: 200, body: { ok: true } });
    const ready = await getJson(`${first.apiUrl}/readyz`);
    assert.equal(ready.status, 200, JSON.stringify(ready.body));
    const me = await getJson(`${first.apiUrl}/api/me`, ownerToken);
    assert.equal(me.status, 200);
    assert.equal(me.body.user.email, 'owner@localhost');
    assert.equal((await stat(path.join(dataDir, 'secret-hash-key'))).mode & 0o777, 0o600);
    await stopWithSigterm(first.stack);
    assert.deepEqual(processesMentioning(dataDir), [], 'Postgres or the dev server outlived the stack');

    const second = await startStack(env, running);
    assert.doesNotMatch(second.stack.stdout, /wys_|wyk_/, 'a restart printed credentials again');
    assert.match(second.stack.stdout, new RegExp(`Account "Workyard" \\(id ${me.body.account.id}\\) exists`));
    const meAgain = await getJson(`${second.apiUrl}/api/me`, ownerToken);
    assert.equal(meAgain.status, 200, "the first start's token no longer verifies after a restart");
    await stopWithSigterm(second.stack);
    assert.deepEqual(processesMentioning(dataDir), []);
  });

  it('with DATA_DIR inside a directory the postgres user cannot enter (0700, as root), keeps the cluster where that user can, names it in DATA_DIR and finds it again on a restart', async () => {
    const closed = await tempDir('wy-closed-');
    await chmod(closed, 0o700);
    const dataDir = path.join(closed, 'data');
    const env = childEnv({ DATA_DIR: dataDir, PORT: '0' });
    const asRoot = process.getuid?.() === 0;
    let clusterDir = path.join(dataDir, 'postgres');
    try {
      const first = await startStack(env, running);
      const ownerToken = first.stack.stdout.match(OWNER_TOKEN)?.[1];
      assert.ok(ownerToken, `no owner token in the first start's banner:\n${first.stack.stdout}`);
      if (asRoot) {
        clusterDir = (await readFile(path.join(dataDir, CLUSTER_RECORD), 'utf8')).trim();
        assert.ok(clusterDir.startsWith(`${CLUSTERS_DIR}/`), `the cluster is in ${clusterDir}`);
        assert.ok(first.stack.stdout.includes(`data in ${clusterDir} (DATA_DIR is out of the postgres user's reach`), first.stack.stdout);
        assert.equal((await stat(closed)).mode & 0o777, 0o700, "the user's directory was loosened");
      }
      assert.ok(existsSync(path.join(clusterDir, 'PG_VERSION')), `no cluster in ${clusterDir}`);
      await stopWithSigterm(first.stack);
      assert.deepEqual(processesMentioning(clusterDir), [], 'Postgres outlived the stack');

      const second = await startStack(env, running);
      assert.doesNotMatch(second.stack.stdout, /wys_|wyk_/, 'a restart started from an empty database');
      assert.equal((await getJson(`${second.apiUrl}/api/me`, ownerToken)).status, 200);
      await stopWithSigterm(second.stack);
      assert.deepEqual(processesMentioning(clusterDir), []);
    } finally {
      if (asRoot && clusterDir.startsWith(`${CLUSTERS_DIR}/`)) await rm(path.dirname(clusterDir), { recursive: true, force: true });
    }
  });

  it('with DATABASE_URL naming a database that does not exist yet, creates it, migrates it and serves from it', async () => {
    const serverUrl = withDatabaseName(harness().databaseUrl, 'postgres');
    const databaseUrl = withDatabaseName(serverUrl, `workyard_start_${randomBytes(4).toString('hex')}`);
    try {
      const { stack, apiUrl } = await startStack(
        childEnv({ DATA_DIR: await tempDir('wy-start-'), PORT: '0', DATABASE_URL: databaseUrl }),
        running,
      );
      assert.match(stack.stdout, new RegExp(`created database \\\\"${databaseNameOf(databaseUrl)}\\\\"`));
      const ownerToken = stack.stdout.match(OWNER_TOKEN)?.[1];
      assert.ok(ownerToken);
      assert.equal((await getJson(`${apiUrl}/api/me`, ownerToken)).status, 200);
      await stopWithSigterm(stack);
    } finally {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${pg.escapeIdentifier(databaseNameOf(databaseUrl))} with (force)`);
      await admin.end();
    }
  });
});
