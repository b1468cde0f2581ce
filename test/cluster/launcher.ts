// A five-process Temporal cluster for the cluster test suite: the open-source server (frontend, two history, matching,
// worker) on PostgreSQL databases of its own, TLS with client certificates on the frontend, everything on 127.0.0.1.
//   node --import tsx test/cluster/launcher.ts start <stateDir>   (then `source <stateDir>/cluster.env`)
//   node --import tsx test/cluster/launcher.ts stop <stateDir>
// Tests load the running cluster with loadClusterState(process.env.TEMPORAL_CLUSTER_STATE) and may kill and restart
// its processes.
import { existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findServerBinaries, TEMPORAL_SERVER_VERSION } from './lib/binaries';
import { makeClusterCerts } from './lib/certs';
import { createClusterDatabases, describeServer, dropClusterDatabases, loadSchemas, postgresServerOf } from './lib/databases';
import { lowFreePorts } from './lib/ports';
import { killNow, launch, runs, stopGracefully } from './lib/processes';
import { waitInitialized, waitReady } from './lib/readiness';
import { clusterConfigValues, readServerConfigTemplate, renderServerConfig, type ConfigValues } from './lib/serverConfig';
import {
  loadState,
  removeEnvFile,
  saveState,
  stateFile,
  writeEnvFile,
  type ClusterProcess,
  type ClusterState,
  type ServiceName,
} from './lib/state';

export type { ClusterProcess, ClusterState } from './lib/state';
export { connectFrontend, tlsOptions } from './lib/readiness';

const NAMESPACE = 'default';
const HOST = '127.0.0.1';
const PROCESSES: Array<{ name: string; service: ServiceName }> = [
  { name: 'frontend', service: 'frontend' },
  { name: 'history-1', service: 'history' },
  { name: 'history-2', service: 'history' },
  { name: 'matching', service: 'matching' },
  { name: 'worker', service: 'worker' },
];

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must name the PostgreSQL server the cluster creates its databases on');
  return url;
}

const logSize = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

function find(state: ClusterState, name: string): ClusterProcess {
  const proc = state.processes.find((candidate) => candidate.name === name);
  if (!proc) throw new Error(`no process ${name} in the cluster (${state.processes.map((p) => p.name).join(', ')})`);
  return proc;
}

/** Starts the process as recorded; the new pid goes into cluster.json. Returns where this run's log output begins. */
async function launchRecorded(state: ClusterState, proc: ClusterProcess): Promise<number> {
  const offset = logSize(proc.logPath);
  proc.pid = launch(proc);
  await saveState(state);
  return offset;
}

/**
 * Creates the databases, certificates and configuration in `stateDir`, starts the five processes and resolves once
 * every one serves and the namespace exists. On failure it stops what it started and drops the databases; the logs stay.
 */
export async function startCluster(stateDir: string, log: (msg: string) => void = () => undefined): Promise<ClusterState> {
  const started = Date.now();
  const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  stateDir = path.resolve(stateDir);
  const binaries = await findServerBinaries();
  const server = postgresServerOf(databaseUrl());
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await stopLeftovers(stateDir);

  const databases = await createClusterDatabases(server);
  const state: ClusterState = {
    stateDir,
    serverVersion: TEMPORAL_SERVER_VERSION,
    address: '',
    namespace: NAMESPACE,
    tls: { caPath: '', certPath: '', keyPath: '', serverName: '' },
    processes: [],
    postgres: describeServer(server),
    databases,
  };
  await saveState(state); // from here on, `stop` can clean up even if this process dies
  try {
    const [certs, ports] = await Promise.all([
      makeClusterCerts(path.join(stateDir, 'tls')),
      lowFreePorts(PROCESSES.length * 2, HOST),
      Promise.all(databases.map((database) => loadSchemas(binaries.sqlTool, server, [database]))),
    ]);
    const portsOf = Object.fromEntries(
      PROCESSES.map(({ name }, i) => [name, { grpcPort: ports[2 * i], membershipPort: ports[2 * i + 1] }]),
    );
    log(`databases with schemas, certificates, ports: ${since()}`);
    state.address = `${HOST}:${portsOf.frontend.grpcPort}`;
    state.tls = { caPath: certs.caPath, certPath: certs.client.certPath, keyPath: certs.client.keyPath, serverName: certs.serverName };

    const common = clusterConfigValues({ server, databases, certs, ports: portsOf, frontendAddress: state.address });
    const template = await readServerConfigTemplate();
    const configDir = path.join(stateDir, 'config');
    const logDir = path.join(stateDir, 'logs');
    await mkdir(configDir, { recursive: true, mode: 0o700 });
    await mkdir(logDir, { recursive: true });

    const offsets = new Map<string, number>();
    for (const { name, service } of PROCESSES) {
      const { grpcPort, membershipPort } = portsOf[name];
      const own: ConfigValues = service === 'history' ? { HISTORY_GRPC_PORT: grpcPort, HISTORY_MEMBERSHIP_PORT: membershipPort } : {};
      // Holds the database password, if any: readable by this user only.
      await writeFile(path.join(configDir, `${name}.yaml`), renderServerConfig(template, { ...common, ...own }), { mode: 0o600 });
      const proc: ClusterProcess = {
        service,
        name,
        pid: 0,
        command: binaries.server,
        args: ['--root', stateDir, '--config', 'config', '--env', name, '--allow-no-auth', 'start', '--service', service],
        env: { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin' },
        cwd: stateDir,
        logPath: path.join(logDir, `${name}.log`),
        grpcPort,
        membershipPort,
      };
      state.processes.push(proc);
      offsets.set(name, await launchRecorded(state, proc));
      if (state.processes.length === 1) {
        await waitInitialized(proc, server, databases[0].name);
        log(`${name} initialized the database: ${since()}`);
      }
    }
    await Promise.all(state.processes.map((proc) => waitReady(state, proc, offsets.get(proc.name)!)));

    state.startedAt = new Date().toISOString();
    state.startupMs = Date.now() - started;
    await saveState(state);
    await writeEnvFile(state);
    return state;
  } catch (err) {
    await stopCluster(state).catch((stopErr) => console.error(`cleaning up after the failed start: ${(stopErr as Error).message}`));
    throw err;
  }
}

/** A previous cluster in the same directory: refuse while it runs, else drop what it left behind. */
async function stopLeftovers(stateDir: string): Promise<void> {
  let previous: ClusterState;
  try {
    previous = loadState(stateDir);
  } catch {
    return;
  }
  const running = previous.processes.filter((proc) => runs(proc.pid, proc.command));
  if (running.length) {
    throw new Error(`a cluster from ${stateFile(stateDir)} still runs (pids ${running.map((p) => p.pid).join(', ')}); stop it first`);
  }
  await stopCluster(previous);
}

/** Stops every process (SIGTERM, then SIGKILL) and drops the databases. Logs and cluster.json stay for inspection. */
export async function stopCluster(stateOrDir: ClusterState | string): Promise<void> {
  const state = typeof stateOrDir === 'string' ? loadState(path.resolve(stateOrDir)) : stateOrDir;
  await removeEnvFile(state.stateDir);
  await Promise.all(
    state.processes.filter((proc) => proc.pid && runs(proc.pid, proc.command)).map((proc) => stopGracefully(proc.pid, 5_000)),
  );
  if (state.databases.length) {
    const server = postgresServerOf(process.env.DATABASE_URL ?? state.postgres);
    await dropClusterDatabases(
      server,
      state.databases.map((database) => database.name),
    );
  }
  state.databases = [];
  await saveState(state);
}

/** SIGKILL to one process (`history-1`, …), as a crash would; resolves once it is gone. */
export async function killProcess(state: ClusterState, name: string): Promise<void> {
  const proc = find(state, name);
  if (runs(proc.pid, proc.command)) await killNow(proc.pid);
}

/** Starts one process again (stopping it first if it runs) and resolves once it serves. */
export async function restartProcess(state: ClusterState, name: string): Promise<ClusterProcess> {
  const proc = find(state, name);
  if (runs(proc.pid, proc.command)) await stopGracefully(proc.pid);
  const offset = await launchRecorded(state, proc);
  await waitReady(state, proc, offset);
  return proc;
}

export function loadClusterState(stateDirOrFile = process.env.TEMPORAL_CLUSTER_STATE): ClusterState {
  if (!stateDirOrFile)
    throw new Error('TEMPORAL_CLUSTER_STATE is not set: start a cluster with test/cluster/launcher.ts and source its cluster.env');
  return loadState(stateDirOrFile);
}

async function main(argv: string[]): Promise<void> {
  const [command, stateDir] = argv;
  if (!stateDir || (command !== 'start' && command !== 'stop')) {
    console.error('usage: node --import tsx test/cluster/launcher.ts start|stop <stateDir>');
    process.exitCode = 2;
    return;
  }
  if (command === 'stop') {
    if (!existsSync(stateFile(path.resolve(stateDir)))) {
      console.log(`no cluster in ${path.resolve(stateDir)}: nothing to stop`);
      return;
    }
    await stopCluster(stateDir);
    console.log(`cluster in ${path.resolve(stateDir)} stopped, databases dropped`);
    return;
  }
  const state = await startCluster(stateDir, (msg) => console.log(msg));
  for (const proc of state.processes) {
    console.log(`${proc.name.padEnd(9)} pid ${proc.pid}, grpc ${proc.grpcPort}, membership ${proc.membershipPort}, log ${proc.logPath}`);
  }
  console.log(`Temporal ${state.serverVersion} cluster ready in ${((state.startupMs ?? 0) / 1000).toFixed(1)} s at ${state.address} (TLS)`);
  console.log(`databases ${state.databases.map((database) => database.name).join(', ')} on ${state.postgres}`);
  console.log(`source ${path.join(state.stateDir, 'cluster.env')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
