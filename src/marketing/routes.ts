import type { RouteDef } from '../http/route';
import { aiChatRoutes } from './ai/routes';
import { brandRoutes } from './brand/routes';
import { contentAnalyticsRoutes } from './analytics/contentAnalyticsRoutes';
import { campaignRoiRoutes } from './analytics/roiRoutes';
import { scorecardRoutes } from './analytics/scorecardRoutes';
import { viewsRoutes } from './analytics/viewsRoutes';
import { caseStudyRoutes } from './caseStudy/routes';
import { categoryRoutes } from './categories/routes';
import { contentRoutes } from './content/routes';
import { groundingRoutes } from './grounding/routes';
import { imagesPreviewRoutes } from './images/previewRoutes';
import { imageRunRoutes } from './images/runRoutes';
import { proofPackRoutes } from './proofPack/routes';
import { commentRoutes } from './comments/routes';
import { contentImageRoutes } from './media/contentImageRoutes';
import { mediaRoutes } from './media/routes';
import { reviewRoutes } from './reviews/routes';
import { calendarRoutes } from './calendar/routes';
import { scheduleRoutes } from './schedule/routes';
import { seoRoutes } from './seo/routes';
import { siteLinksRoutes } from './siteLinks/routes';

/** Every marketing route (content and its jobs, grounding objects, media …), dashboard and agent twins. */
export function marketingRoutes(): RouteDef[] {
  return [
    ...caseStudyRoutes(),
    ...viewsRoutes(),
    ...scorecardRoutes(),
    ...contentAnalyticsRoutes(),
    ...campaignRoiRoutes(),
    ...contentRoutes(),
    ...groundingRoutes(),
    ...categoryRoutes(),
    ...commentRoutes(),
    ...reviewRoutes(),
    ...contentImageRoutes(),
    ...imagesPreviewRoutes(),
    ...imageRunRoutes(),
    ...mediaRoutes(),
    ...brandRoutes(),
    ...seoRoutes(),
    ...calendarRoutes(),
    ...scheduleRoutes(),
    ...siteLinksRoutes(),
    ...proofPackRoutes(),
    ...aiChatRoutes(),
  ];
}
