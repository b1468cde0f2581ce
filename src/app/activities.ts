import { createAiTurnActivities } from '../../activities/aiTurns';
import { createAlertActivities } from '../../activities/alerts';
import { createCommerceActivities } from '../../activities/commerce';
import { createCommerceBackfillActivities } from '../../activities/commerceBackfill';
import { createCommercePrivacyActivities } from '../../activities/commercePrivacy';
import { createCommerceSweepActivities } from '../../activities/commerceSweeps';
import { createCaseStudyActivities } from '../../activities/caseStudy';
import { createContentAnalyticsActivities } from '../../activities/contentAnalytics';
import { createContentImagesActivities } from '../../activities/contentImages';
import { createContentPublishActivities } from '../../activities/contentPublish';
import type { ActivityDeps } from '../../activities/deps';
import { createEmailBatchActivities } from '../../activities/emailBatches';
import { createEmailDeliveryActivities } from '../../activities/emailDelivery';
import { createEmailScheduledActivities } from '../../activities/emailScheduled';
import { createEmailWebhookActivities } from '../../activities/emailWebhooks';
import { createJobsBulkActivities } from '../../activities/jobsBulk';
import { createMaintenanceActivities } from '../../activities/maintenance';
import { createResearchActivities } from '../../activities/research';
import { createSitePlatformFormsActivities } from '../../activities/sitePlatformForms';
import { createSitePlatformEventActivities } from '../../activities/sitePlatformEvents';
import { createSitePlatformSweepActivities } from '../../activities/sitePlatformSweeps';
import { withFailureMapping } from '../temporal/activityFailure';

/**
 * Builds the worker's activity object from its dependencies; each area adds its `create<Area>Activities(deps)`.
 * Every activity throws coded errors as Temporal failures through the one mapping (src/temporal/activityFailure.ts).
 */
export function createActivities(deps: ActivityDeps) {
  return withFailureMapping({
    ...createMaintenanceActivities(deps),
    ...createJobsBulkActivities(deps),
    ...createCommerceActivities(deps),
    ...createCommerceBackfillActivities(deps),
    ...createCommerceSweepActivities(deps),
    ...createCommercePrivacyActivities(deps),
    ...createResearchActivities(deps),
    ...createSitePlatformFormsActivities(deps),
    ...createSitePlatformEventActivities(deps),
    ...createSitePlatformSweepActivities(deps),
    ...createEmailWebhookActivities(deps),
    ...createEmailBatchActivities(deps),
    ...createEmailDeliveryActivities(deps),
    ...createContentPublishActivities(deps),
    ...createContentImagesActivities(deps),
    ...createCaseStudyActivities(deps),
    ...createContentAnalyticsActivities(deps),
    ...createAiTurnActivities(deps),
    ...createEmailScheduledActivities(deps),
    ...createAlertActivities(deps),
  });
}

export type Activities = ReturnType<typeof createActivities>;
