import type { Config } from '../src/config';
import type { Knex } from '../src/db/knex';
import type { Logger } from '../src/logger';

/** What every activity factory is built from; the composition root (src/app/activities.ts) hands it over. */
export interface ActivityDeps {
  config: Config;
  db: Knex;
  logger: Logger;
}
