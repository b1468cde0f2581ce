import type { Config } from '../../../config';
import type { Knex } from '../../../db/knex';
import type { AppDeps, TemporalDeps } from '../../../deps';
import { createMetrics } from '../../../http/metrics';
import type { Logger } from '../../../logger';

/** What the tools run with: an activity builds it from the worker's deps and `Context.current().client`. */
export interface ToolDeps {
  db: Knex;
  config: Config;
  logger: Logger;
  temporal: TemporalDeps;
  secretHashKey: string;
}

// The services take AppDeps. Jobs started from a tool count nowhere (no registry is scraped in a worker), so one
// metrics object without default collectors serves every call of the same deps.
const built = new WeakMap<ToolDeps, AppDeps>();

export function appDepsOf(deps: ToolDeps): AppDeps {
  let app = built.get(deps);
  if (!app) {
    app = { ...deps, schedules: [], metrics: createMetrics(false) };
    built.set(deps, app);
  }
  return app;
}
