import { loadConfig } from '../../config';
import { createDb } from '../../db/knex';
import { API_DRAIN_MS, startApi, stopApi } from '../api';
import { buildAppDeps } from '../appDeps';
import { parseFlags } from '../args';
import { serviceLogger, type CommandIO } from '../command';
import { databaseUrlFor, temporalFor } from '../connections';
import { withSecretHashKey } from '../secretHashKey';
import { runService } from '../service';
import { checkDeploymentMarker } from '../deploymentMarker';
import { connectTemporalChecked } from '../temporal';

export async function run(args: string[], io: CommandIO): Promise<number> {
  parseFlags('api', args, {});
  const { config } = await withSecretHashKey(loadConfig(io.env));
  const logger = serviceLogger(config);
  const databaseUrl = databaseUrlFor('api', config);
  const temporal = temporalFor('api', config, io.env);
  return runService(logger, async (lifecycle) => {
    const db = createDb(databaseUrl, config.DATABASE_POOL_MAX);
    lifecycle.onShutdown('database pool', () => db.destroy());
    const client = await connectTemporalChecked(temporal);
    lifecycle.onShutdown('Temporal client', () => client.connection.close());
    const queue = { client, address: temporal.address, namespace: temporal.namespace, taskQueue: config.TEMPORAL_TASK_QUEUE };
    await checkDeploymentMarker(queue, db, false, (msg) => logger.info(msg));
    const api = await startApi(
      buildAppDeps({ config, logger, db, client, namespace: temporal.namespace, uiUrl: config.TEMPORAL_UI_URL }),
      config.HOST,
      config.PORT,
    );
    lifecycle.onShutdown('API server (stop accepting, drain in-flight requests)', () => stopApi(api, logger), API_DRAIN_MS + 5_000);
    logger.info(
      { apiUrl: api.url, temporal: temporal.address, namespace: temporal.namespace, security: temporal.security.summary },
      `API listening on ${api.url}`,
    );
  });
}
