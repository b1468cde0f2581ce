import type { Client } from '@temporalio/client';
import type { Config } from './config';
import type { Knex } from './db/knex';
import type { Logger } from './logger';
import type { Metrics } from './http/metrics';
import type { StartedRun } from './temporal/startedRun';
import type { ScheduleEntry } from './temporal/schedules';

export interface TemporalDeps {
  client: Client;
  namespace: string;
  taskQueue: string;
  /** Base URL of the Temporal UI, for links to runs; absent when unknown. */
  uiUrl?: string;
  /**
   * Records each job start in the job index (src/jobs/jobIndexWrites.ts) the moment it is made, so that the starting
   * client sees its job listed at once. Absent, the index watcher takes the run a few seconds later.
   */
  jobIndex?: (run: StartedRun) => Promise<void>;
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
