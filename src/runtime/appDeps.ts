import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Knex } from '../db/knex';
import type { AppDeps } from '../deps';
import { createMetrics } from '../http/metrics';
import { jobIndexRecorder } from '../jobs/jobIndexWrites';
import type { Logger } from '../logger';
import { SCHEDULES } from '../app/schedules';

/** The API's dependencies; `config.SECRET_HASH_KEY` is already resolved (see secretHashKey.ts). */
export function buildAppDeps(options: {
  config: Config;
  logger: Logger;
  db: Knex;
  client: Client;
  namespace: string;
  uiUrl?: string;
}): AppDeps {
  const { config, logger, db, client, namespace, uiUrl } = options;
  if (!config.SECRET_HASH_KEY) throw new Error('buildAppDeps needs a resolved SECRET_HASH_KEY');
  return {
    config,
    logger,
    db,
    temporal: { client, namespace, taskQueue: config.TEMPORAL_TASK_QUEUE, uiUrl, jobIndex: jobIndexRecorder(db, logger) },
    schedules: SCHEDULES,
    metrics: createMetrics(true),
    secretHashKey: config.SECRET_HASH_KEY,
  };
}
