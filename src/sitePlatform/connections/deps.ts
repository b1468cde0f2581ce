import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';

/** What the connection services need; the API's AppDeps fits. `now` is the clock (tests inject one). */
export interface SitePlatformDeps {
  db: Knex;
  config: Config;
  logger: Logger;
  secretHashKey: string;
  now?: () => number;
}

export const nowOf = (deps: Pick<SitePlatformDeps, 'now'>) => (deps.now ?? Date.now)();
