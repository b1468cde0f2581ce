import type { Config } from '../config';
import { createDb, migrateLatest } from '../db/knex';
import type { Logger } from '../logger';
import { API_DRAIN_MS, startApi, stopApi } from './api';
import { buildAppDeps } from './appDeps';
import { bannerLines } from './banner';
import { prepareDataDir } from './dataDir';
import { startStackDatabase } from './database';
import { ensureFirstAccount } from './firstAccount';
import { syncAllSchedules } from './schedules';
import { withSecretHashKey } from './secretHashKey';
import { startSandbox } from './sandbox';
import { smtpBannerLines, startSmtpSubmission, type RunningSubmission } from './smtpSubmission';
import { CliError } from './errors';
import { runService } from './service';
import { removeStackInfo, writeStackInfo } from './stackFile';
import type { TemporalConnectionSettings } from '../temporal/connectionConfig';
import { checkDeploymentMarker } from './deploymentMarker';
import { connectTemporalChecked, startStackTemporal } from './temporal';
import { reportWorkerPeers } from './workerPeers';
import { installTemporalRuntime, loadWorkflowCode, startWorker, superviseWorker } from './worker';

/**
 * The all-in-one start: Postgres (embedded unless DATABASE_URL), Temporal (dev server unless TEMPORAL_ADDRESS),
 * migrations, schedule sync, the worker and the API in one process, until a stop signal; then everything stops in
 * reverse order. Answers the exit code.
 */
export async function runStack(
  baseConfig: Config,
  logger: Logger,
  print: (line: string) => void,
  options: { sandbox?: boolean; temporal: TemporalConnectionSettings },
): Promise<number> {
  return runService(logger, async (lifecycle) => {
    const started = Date.now();
    const log = (msg: string) => logger.info(msg);
    const dataDir = await prepareDataDir(baseConfig.DATA_DIR);
    const { config: keyedConfig, key } = await withSecretHashKey(baseConfig);
    if (key.source === 'generated') log(`generated the credential hash key in ${key.file} (keep it: stored hashes depend on it)`);
    // --sandbox: platform simulators on loopback; registered first, so they stop last (after the API and the worker).
    const sandbox = options.sandbox ? await startSandbox(keyedConfig) : undefined;
    if (sandbox) lifecycle.onShutdown('platform and provider simulators', () => sandbox.stop());
    const config = sandbox?.config ?? keyedConfig;
    await installTemporalRuntime(logger);

    log('starting Postgres and Temporal, bundling workflows…');
    const [database, temporal, workflows] = await Promise.allSettled([
      startStackDatabase(config.DATABASE_URL, dataDir, log),
      startStackTemporal(config, options.temporal, dataDir, log),
      loadWorkflowCode(config),
    ]).then((settled) => {
      // Registered in this order whatever finished first, so the dev server stops before Postgres.
      const [db, tmp] = settled;
      if (db.status === 'fulfilled' && db.value.stop) lifecycle.onShutdown('embedded Postgres', db.value.stop);
      if (tmp.status === 'fulfilled' && tmp.value.stop) lifecycle.onShutdown('Temporal dev server', tmp.value.stop);
      return fulfilled(settled);
    });
    logger.info(
      { postgres: database.description, temporal: temporal.description, workflows: workflows.source, ms: Date.now() - started },
      'Postgres and Temporal are up',
    );
    if (lifecycle.isStopping) return;

    const db = createDb(database.url, config.DATABASE_POOL_MAX);
    lifecycle.onShutdown('database pool', () => db.destroy());
    const applied = await migrateLatest(db);
    logger.info({ applied }, applied.length ? `applied ${applied.length} migration(s)` : 'database schema is up to date');

    const client = await connectTemporalChecked(temporal);
    lifecycle.onShutdown('Temporal client', () => client.connection.close());
    const queue = { client, address: temporal.address, namespace: temporal.namespace, taskQueue: config.TEMPORAL_TASK_QUEUE };
    await checkDeploymentMarker(queue, db, temporal.devServer, log);
    const sync = await syncAllSchedules(client, config.TEMPORAL_TASK_QUEUE);
    logger.info({ schedules: sync.result }, `schedules synced: ${sync.summary}`);

    const worker = await startWorker({
      config,
      db,
      logger,
      address: temporal.address,
      namespace: temporal.namespace,
      security: temporal.security,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      code: workflows.code,
    });
    superviseWorker(worker, lifecycle);
    const workerReport = await reportWorkerPeers(queue, db, worker.fingerprint, logger);
    if (lifecycle.isStopping) return;

    const deps = buildAppDeps({ config, logger, db, client, namespace: temporal.namespace, uiUrl: temporal.uiUrl });
    const api = await startApi(deps, config.HOST, config.PORT);
    sandbox?.serveAt(api.url);
    lifecycle.onShutdown('API server (stop accepting, drain in-flight requests)', () => stopApi(api, logger), API_DRAIN_MS + 5_000);
    // SMTP submission beside the API, on the same deps (keyring, limiter, relay pool); stopped before the API.
    // A port it cannot bind (587 and 465 need privileges) is reported, not fatal, in the all-in-one start.
    let smtp: RunningSubmission | null = null;
    let smtpProblem: string | undefined;
    try {
      smtp = await startSmtpSubmission(deps, dataDir);
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      smtpProblem = `not started: ${err.message}`;
      logger.warn(smtpProblem);
    }
    if (smtp) lifecycle.onShutdown('SMTP submission', () => smtp.server.stop());

    const firstAccount = await ensureFirstAccount(db, config.SECRET_HASH_KEY!, config.NODE_ENV !== 'production');
    if (sandbox && firstAccount.account) await sandbox.prepareDemoProject(deps, firstAccount.account.id);
    await writeStackInfo(dataDir, {
      pid: process.pid,
      apiUrl: api.url,
      databaseUrl: database.embedded ? database.url : undefined,
      temporalAddress: temporal.devServer ? temporal.address : undefined,
      temporalNamespace: temporal.devServer ? temporal.namespace : undefined,
      temporalUiUrl: temporal.uiUrl,
    });
    lifecycle.onShutdown('stack file', () => removeStackInfo(dataDir));

    logger.info({ apiUrl: api.url, temporalUiUrl: temporal.uiUrl, ms: Date.now() - started }, 'Workyard is running');
    bannerLines({
      apiUrl: api.url,
      uiUrl: temporal.uiUrl,
      database: database.description,
      temporal: temporal.description,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      dataDir,
      firstAccount,
      cronSecretSet: Boolean(config.CRON_SECRET),
      secretKeySource: key.source === 'SECRET_HASH_KEY' ? 'SECRET_HASH_KEY' : key.file!,
      startedInMs: Date.now() - started,
      smtp: smtpBannerLines(smtp, config.SMTP_SUBMISSION_USER, smtpProblem),
      sandbox: sandbox?.bannerLines(api.url),
      worker: workerReport,
    }).forEach((line) => print(line));
  });
}

/** The values of settled starts, or the first failure. */
function fulfilled<T extends readonly unknown[]>(settled: { [K in keyof T]: PromiseSettledResult<T[K]> }): T {
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
