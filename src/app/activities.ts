import { createCommerceActivities } from '../../activities/commerce';
import { createCommerceBackfillActivities } from '../../activities/commerceBackfill';
import { createCommercePrivacyActivities } from '../../activities/commercePrivacy';
import { createCommerceSweepActivities } from '../../activities/commerceSweeps';
import type { ActivityDeps } from '../../activities/deps';
import { createEmailBatchActivities } from '../../activities/emailBatches';
import { createEmailWebhookActivities } from '../../activities/emailWebhooks';
import { createMaintenanceActivities } from '../../activities/maintenance';
import { createResearchActivities } from '../../activities/research';

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
