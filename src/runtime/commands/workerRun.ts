import { loadConfig } from '../../config';
import { createDb } from '../../db/knex';
import { parseFlags } from '../args';
import { serviceLogger, type CommandIO } from '../command';
import { databaseUrlFor, temporalFor } from '../connections';
import { withSecretHashKey } from '../secretHashKey';
import { runService } from '../service';
import { checkDeploymentMarker } from '../deploymentMarker';
import { connectTemporalChecked } from '../temporal';
import { reportWorkerPeers } from '../workerPeers';
import { installTemporalRuntime, loadWorkflowCode, startWorker, startWorkerMetrics, superviseWorker } from '../worker';

export async function run(args: string[], io: CommandIO): Promise<number> {
  parseFlags('worker', args, {});
  const { config } = await withSecretHashKey(loadConfig(io.env));
  const logger = serviceLogger(config);
  const databaseUrl = databaseUrlFor('worker', config);
  const temporal = temporalFor('worker', config, io.env);
  return runService(logger, async (lifecycle) => {
    await installTemporalRuntime(logger);
    // The worker's own connection fails with a bare gRPC error: check the server and namespace first to name the variable.
    const client = await connectTemporalChecked(temporal);
    lifecycle.onShutdown('Temporal client', () => client.connection.close());
    const db = createDb(databaseUrl, config.DATABASE_POOL_MAX);
    lifecycle.onShutdown('database pool', () => db.destroy());
    const queue = { client, address: temporal.address, namespace: temporal.namespace, taskQueue: config.TEMPORAL_TASK_QUEUE };
    await checkDeploymentMarker(queue, db, false, (msg) => logger.info(msg));
    // Started before the worker, so it stops after it: the drain stays observable.
    const metrics = await startWorkerMetrics(config);
    if (metrics) lifecycle.onShutdown('metrics endpoint', () => metrics.stop());
    logger.info({ metricsUrl: metrics?.url }, metrics ? 'worker metrics served' : 'worker metrics off (METRICS_PORT=0)');
    const workflows = await loadWorkflowCode(config);
    const worker = await startWorker({ config, db, logger, ...temporal, taskQueue: config.TEMPORAL_TASK_QUEUE, code: workflows.code });
    superviseWorker(worker, lifecycle);
    await reportWorkerPeers(queue, db, worker.fingerprint, logger);
    logger.info(
      {
        address: temporal.address,
        namespace: temporal.namespace,
        security: temporal.security.summary,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflows: workflows.source,
      },
      'worker running',
    );
  });
}
