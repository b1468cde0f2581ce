import type { Config } from '../src/config';
import type { Knex } from '../src/db/knex';
import type { Logger } from '../src/logger';
import { createCommerceActivities } from './commerce';
import { createCommerceBackfillActivities } from './commerceBackfill';
import { createCommercePrivacyActivities } from './commercePrivacy';
import { createCommerceSweepActivities } from './commerceSweeps';
import { createEmailBatchActivities } from './emailBatches';
import { createEmailWebhookActivities } from './emailWebhooks';
import { createMaintenanceActivities } from './maintenance';
import { createResearchActivities } from './research';

export interface ActivityDeps {
  config: Config;
  db: Knex;
  logger: Logger;
}

/** Builds the worker's activity object from its dependencies; each area adds its `create<Area>Activities(deps)`. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createMaintenanceActivities(deps),
    ...createCommerceActivities(deps),
    ...createCommerceBackfillActivities(deps),
    ...createCommerceSweepActivities(deps),
    ...createCommercePrivacyActivities(deps),
    ...createResearchActivities(deps),
    ...createEmailWebhookActivities(deps),
    ...createEmailBatchActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
