import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CLUSTER_RECORD, CLUSTERS_DIR, clusterLocationFor } from '../../src/dev/clusterLocation';
import { EmbeddedPostgresError } from '../../src/dev/embeddedPostgresError';
import { postgresRunAs } from '../../src/dev/postgresUser';
import type { UnixUser } from '../../src/dev/reachable';

describe('a DATA_DIR the postgres user cannot enter keeps its cluster in a root-owned home of its own, named in DATA_DIR', () => {
  let runAs: UnixUser;
  let closed: string;
  const homes: string[] = [];
  before(async function () {
    if (process.getuid?.() !== 0) this.skip(); // only root hands the server to another user
    runAs = (await postgresRunAs())!;
    closed = await mkdtemp(path.join(os.tmpdir(), 'wy-closed-')); // mode 0700
  });
  after(async () => {
    await Promise.all([closed, ...homes].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('uses DATA_DIR/postgres when the postgres user can reach it, and records nothing', async () => {
    const open = path.join(closed, '..', `${path.basename(closed)}-open`);
    homes.push(open);
    await mkdir(open, { mode: 0o755 });
    await chmod(open, 0o755);
    assert.deepEqual(await clusterLocationFor(open, runAs), { dir: path.join(open, 'postgres') });
  });

  it('finds the same home again from the record, and gives a new DATA_DIR at the same path a new, empty one', async () => {
    const dataDir = path.join(closed, 'data');
    await mkdir(dataDir, { mode: 0o755 });
    const first = await clusterLocationFor(dataDir, runAs);
    homes.push(path.dirname(first.dir));
    assert.ok(first.dir.startsWith(`${CLUSTERS_DIR}/`), first.dir);
    assert.equal(first.recordFile, path.join(dataDir, CLUSTER_RECORD));
    assert.equal((await readFile(first.recordFile, 'utf8')).trim(), first.dir);
    assert.deepEqual(await clusterLocationFor(dataDir, runAs), first);

    await rm(dataDir, { recursive: true });
    await mkdir(dataDir, { mode: 0o755 });
    const fresh = await clusterLocationFor(dataDir, runAs);
    homes.push(path.dirname(fresh.dir));
    assert.notEqual(fresh.dir, first.dir);
  });

  it('refuses a record that names anything but a cluster home, with a message saying what to fix', async () => {
    const dataDir = path.join(closed, 'tampered');
    await mkdir(dataDir, { mode: 0o755 });
    await writeFile(path.join(dataDir, CLUSTER_RECORD), '/etc\n');
    await assert.rejects(
      clusterLocationFor(dataDir, runAs),
      (err: Error) => err instanceof EmbeddedPostgresError && /fix or remove it/.test(err.message),
    );
  });

  it('refuses, saying what to change, to hide an existing cluster in DATA_DIR that the postgres user cannot reach', async () => {
    const dataDir = path.join(closed, 'old');
    await mkdir(path.join(dataDir, 'postgres'), { recursive: true, mode: 0o755 });
    await writeFile(path.join(dataDir, 'postgres/PG_VERSION'), '18\n');
    await assert.rejects(
      clusterLocationFor(dataDir, runAs),
      (err: Error) => err instanceof EmbeddedPostgresError && err.message.includes(`chmod o+x ${closed}`),
    );
  });
});
