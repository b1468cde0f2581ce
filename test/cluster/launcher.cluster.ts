import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import pg from 'pg';
import { makeClusterCerts } from './lib/certs';
import { createClusterDatabases, describeServer, postgresServerOf } from './lib/databases';
import { launch, isAlive } from './lib/processes';
import { envFile, saveState, type ClusterState } from './lib/state';
import { connectFrontend, killProcess, loadClusterState, restartProcess, startCluster, stopCluster } from './launcher';

/*
 * The cluster the suite runs on (TEMPORAL_CLUSTER_STATE, as .ci/run starts it), or one of its own when that is unset.
 */

const SERVING = 1;
const HEALTH_NAME = 'temporal.api.workflowservice.v1.HistoryService';

async function refused(connect: () => Promise<Connection>): Promise<boolean> {
  try {
    const connection = await connect();
    try {
      await connection.workflowService.getSystemInfo({});
    } finally {
      await connection.close();
    }
    return false;
  } catch {
    return true;
  }
}

/** Retries `fn` until it succeeds or `ms` pass (a shard moving between history processes fails calls for a while). */
async function eventually<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(500);
    }
  }
}

describe('the Temporal test cluster (test/cluster/launcher.ts)', function () {
  this.timeout(300_000);
  let state: ClusterState;
  let own: string | undefined;
  let connection: Connection;
  let client: Client;

  before(async () => {
    if (process.env.TEMPORAL_CLUSTER_STATE) {
      state = loadClusterState();
    } else {
      own = await mkdtemp(path.join(os.tmpdir(), 'wy-cluster-'));
      state = await startCluster(own);
    }
    connection = await connectFrontend(state);
    client = new Client({ connection, namespace: state.namespace });
  });
  after(async () => {
    await connection?.close();
    if (own && state) await stopCluster(state); // a failed start has cleaned up after itself
    if (own) await rm(own, { recursive: true, force: true });
  });

  it('runs frontend, two history, matching and worker processes, each on its own ports below 32768', () => {
    assert.deepEqual(state.processes.map((proc) => proc.service).sort(), ['frontend', 'history', 'history', 'matching', 'worker']);
    const ports = state.processes.flatMap((proc) => [proc.grpcPort, proc.membershipPort]);
    assert.equal(new Set(ports).size, ports.length);
    for (const port of ports) assert.ok(port > 0 && port < 32768, String(port));
    for (const proc of state.processes) assert.ok(isAlive(proc.pid), `${proc.name} (pid ${proc.pid}) is not running`);
  });

  it('serves the default namespace, with four history shards, to a client presenting the cluster client certificate', async () => {
    const { namespaceInfo } = await connection.workflowService.describeNamespace({ namespace: 'default' });
    assert.equal(namespaceInfo?.name, 'default');
    const info = await connection.workflowService.getClusterInfo({});
    assert.equal(info.historyShardCount, 4);
    assert.equal(info.serverVersion, state.serverVersion.replace(/^v/, ''));
  });

  it('refuses clients without a certificate, with a certificate of another CA, and without TLS', async () => {
    const serverRootCACertificate = await readFile(state.tls.caPath);
    const serverNameOverride = state.tls.serverName;
    const address = state.address;
    const stranger = await mkdtemp(path.join(os.tmpdir(), 'wy-stranger-'));
    try {
      const other = await makeClusterCerts(stranger);
      const clientCertPair = { crt: await readFile(other.client.certPath), key: await readFile(other.client.keyPath) };
      const connectTimeout = 3_000;
      assert.ok(await refused(() => Connection.connect({ address, connectTimeout, tls: { serverNameOverride, serverRootCACertificate } })));
      assert.ok(
        await refused(() =>
          Connection.connect({ address, connectTimeout, tls: { serverNameOverride, serverRootCACertificate, clientCertPair } }),
        ),
      );
      assert.ok(await refused(() => Connection.connect({ address, connectTimeout })));
    } finally {
      await rm(stranger, { recursive: true, force: true });
    }
  });

  it('writes cluster.env with the variables @temporalio/envconfig reads, and they reach the cluster', async () => {
    const env = Object.fromEntries(
      readFileSync(envFile(state.stateDir), 'utf8')
        .trim()
        .split('\n')
        .map((line) => {
          const [, name, quoted] = /^export ([A-Z_]+)='(.*)'$/.exec(line)!;
          return [name, quoted.replace(/'\\''/g, "'")];
        }),
    );
    assert.equal(env.TEMPORAL_CLUSTER_STATE, path.join(state.stateDir, 'cluster.json'));
    const config = loadClientConnectConfig({ disableFile: true, overrideEnvVars: env });
    const { address, tls } = config.connectionOptions;
    const viaEnv = await Connection.connect({ address, tls });
    try {
      const { namespaceInfo } = await viaEnv.workflowService.describeNamespace({ namespace: config.namespace! });
      assert.equal(namespaceInfo?.name, state.namespace);
    } finally {
      await viaEnv.close();
    }
  });

  it('keeps starting workflows while a history process is killed, and the restarted process serves its shards again', async () => {
    const taskQueue = `cluster-smoke-${randomBytes(4).toString('hex')}`;
    const started: string[] = [];
    const startSome = async (label: string) => {
      // Eight ids spread over the four shards, so that some land on the shards the killed process held.
      for (let i = 0; i < 8; i++) {
        const workflowId = `${taskQueue}-${label}-${i}`;
        await eventually(90_000, async () => {
          try {
            await client.workflow.start('clusterSmoke', { taskQueue, workflowId });
          } catch (err) {
            // An earlier attempt got through after all.
            if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
          }
        });
        started.push(workflowId);
      }
    };
    try {
      await killProcess(state, 'history-1');
      const killed = state.processes.find((proc) => proc.name === 'history-1')!;
      assert.equal(isAlive(killed.pid), false);
      await connection.workflowService.describeNamespace({ namespace: state.namespace }); // the frontend still answers
      await startSome('down');

      await restartProcess(state, 'history-1');
      const health = Connection.lazy({ address: `127.0.0.1:${killed.grpcPort}` });
      try {
        assert.equal((await health.healthService.check({ service: HEALTH_NAME })).status, SERVING);
      } finally {
        await health.close();
      }
      await startSome('back');
      for (const workflowId of started) {
        const description = await eventually(60_000, () => client.workflow.getHandle(workflowId).describe());
        assert.equal(description.status.name, 'RUNNING');
      }
    } finally {
      await Promise.all(
        started.map((workflowId) => eventually(60_000, () => client.workflow.getHandle(workflowId).terminate('smoke test'))),
      );
    }
  });
});

describe('stopping a test cluster', function () {
  this.timeout(60_000);

  it('ends every recorded process together with its children and drops both databases', async function () {
    if (!process.env.DATABASE_URL) this.skip(); // the cluster's databases live on DATABASE_URL's server
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'wy-cluster-stop-'));
    const server = postgresServerOf(process.env.DATABASE_URL);
    const databases = await createClusterDatabases(server);
    const shell = '/bin/sh';
    const logPath = path.join(stateDir, 'proc.log');
    // Each process leaves a child behind, as a server's helper processes would.
    const spec = { command: shell, args: ['-c', 'sleep 600 & echo $! > "$CHILD_FILE"; wait'], cwd: stateDir, logPath };
    const processes = ['a', 'b'].map((name) => {
      const env = { PATH: process.env.PATH!, CHILD_FILE: path.join(stateDir, `${name}.child`) };
      return { service: 'worker' as const, name, pid: launch({ ...spec, env }), ...spec, env, grpcPort: 1, membershipPort: 2 };
    });
    const state: ClusterState = {
      stateDir,
      serverVersion: 'v0',
      address: '',
      namespace: 'default',
      tls: { caPath: '', certPath: '', keyPath: '', serverName: '' },
      processes,
      postgres: describeServer(server),
      databases,
    };
    await saveState(state);
    try {
      const children = await eventually(10_000, async () =>
        Promise.all(
          processes.map(async (proc) => {
            const pid = Number(await readFile(proc.env.CHILD_FILE, 'utf8'));
            if (!(pid > 0)) throw new Error(`no child pid in ${proc.env.CHILD_FILE} yet`);
            return pid;
          }),
        ),
      );
      for (const pid of [...processes.map((proc) => proc.pid), ...children]) assert.ok(isAlive(pid));

      await stopCluster(stateDir);

      for (const pid of [...processes.map((proc) => proc.pid), ...children]) assert.equal(isAlive(pid), false, `pid ${pid} survived`);
      const admin = new pg.Client({ ...server, database: 'postgres' });
      await admin.connect();
      try {
        const names = databases.map((database) => database.name);
        const { rows } = await admin.query('select datname from pg_database where datname = any($1)', [names]);
        assert.deepEqual(rows, []);
      } finally {
        await admin.end();
      }
    } finally {
      for (const proc of processes) if (isAlive(proc.pid)) process.kill(-proc.pid, 'SIGKILL');
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
