import type { Client } from '@temporalio/client';
import type { Config } from './config';
import type { Knex } from './db/knex';
import type { Logger } from './logger';
import type { Metrics } from './http/metrics';
import type { ScheduleEntry } from './temporal/schedules';

export interface TemporalDeps {
  client: Client;
  namespace: string;
  taskQueue: string;
  /** Base URL of the Temporal UI, for links to runs; absent when unknown. */
  uiUrl?: string;
  /**
   * Where job starts are recorded in the job index (src/jobs/jobIndex.ts) the moment they are made, so that the
   * starting client sees its job listed at once. Absent, the index watcher takes the run in a few seconds later.
   */
  jobIndex?: { db: Knex; logger: Logger };
}

/** What the API process is built from; tests build the same thing against their own servers. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  db: Knex;
  temporal: TemporalDeps;
  schedules: ScheduleEntry[];
  metrics: Metrics;
  /** HMAC key of stored credential hashes. */
  secretHashKey: string;
}
