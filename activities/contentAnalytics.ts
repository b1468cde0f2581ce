import { fillProjectDays, nightlyProjectsPage } from '../src/marketing/analytics/nightly';
import type { ActivityDeps } from './deps';

/** The nightly analytics rows: one page of projects to visit, then one project's missing days (a few per call). */
export function createContentAnalyticsActivities(deps: ActivityDeps) {
  return {
    listContentAnalyticsProjects: (page: { afterId: string | null; limit: number }) => nightlyProjectsPage(deps.db, page),
    fillContentAnalyticsDays: (input: { accountId: string; projectId: string; maxDays?: number }) => fillProjectDays(deps, input),
  };
}
