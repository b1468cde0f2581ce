import { ActivityFailure, makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { PAGE_ACTIVITY, ROW_ACTIVITY_RETRY } from './sweep';
import type { ContentAnalyticsDailyInput, ContentAnalyticsDailySummary } from './contentAnalyticsDaily.contract';
import { trackProgress } from './progress';
import { reportConnection, startSweepBudget } from './sweepBudget';

const { listContentAnalyticsProjects } = proxyActivities<Activities>(PAGE_ACTIVITY);
const { fillContentAnalyticsDays } = proxyActivities<Activities>({
  // Up to 7 days × (3 collector queries bounded by ANALYTICS_TIMEOUT_MS + 2 statements) and a few search calls.
  startToCloseTimeout: '5 minutes',
  retry: ROW_ACTIVITY_RETRY,
});

/** Projects visited before the run continues as new (keeps the history small). */
const PROJECTS_PER_RUN = 500;

/**
 * The `content-analytics-daily` sweep (daily at 02:15 UTC): for every project with a collector site id and linked
 * content items, stores one row per item per closed UTC day up to yesterday — filling the days missed while the
 * collector was down — a few days per activity call, until every project is up to date or the budget is spent
 * (`partial: true`; the next run goes on where the rows stop).
 */
export async function contentAnalyticsDaily(input: ContentAnalyticsDailyInput = {}): Promise<ContentAnalyticsDailySummary> {
  const budget = startSweepBudget(input);
  const summary: ContentAnalyticsDailySummary = input.summary ?? {
    partial: false,
    projects: 0,
    items: 0,
    rows_stored: 0,
    rank_measured: 0,
    collector_unavailable: 0,
    failed: 0,
    results: [],
    results_truncated: false,
  };
  const progress = trackProgress('projects');
  progress.advance(summary.projects);
  let afterId = input.afterProjectId ?? null;
  for (let visited = 0; ;) {
    if (budget.spent()) return { ...summary, partial: true };
    if (visited >= PROJECTS_PER_RUN || (visited > 0 && workflowInfo().continueAsNewSuggested)) {
      const next = makeContinueAsNewFunc<typeof contentAnalyticsDaily>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
      return next({ ...input, deadline: budget.deadline, afterProjectId: afterId, summary });
    }
    const page = await listContentAnalyticsProjects({ afterId, limit: budget.pageSize });
    for (const project of page) {
      if (budget.spent()) return { ...summary, partial: true };
      await fillProject(project, input, summary, budget.spent);
      summary.projects++;
      visited++;
      afterId = project.project_id;
      progress.advance();
    }
    if (page.length < budget.pageSize) return summary;
  }
}

async function fillProject(
  project: { account_id: string; project_id: string },
  input: ContentAnalyticsDailyInput,
  summary: ContentAnalyticsDailySummary,
  spent: () => boolean,
): Promise<void> {
  let items = 0;
  for (;;) {
    try {
      const result = await fillContentAnalyticsDays({
        accountId: project.account_id,
        projectId: project.project_id,
        maxDays: input.daysPerCall,
      });
      items = result.items;
      summary.rows_stored += result.rows_stored;
      summary.rank_measured += result.rank_measured;
      if (result.status === 'collector_unavailable') summary.collector_unavailable++;
      if (result.status === 'stored' || result.status === 'collector_unavailable') record(summary, result);
      if (result.status !== 'stored' || result.remaining_days === 0) break;
      if (spent()) {
        summary.partial = true;
        break;
      }
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      summary.failed++;
      record(summary, { ...project, status: 'failed', code: err.cause?.message ?? 'activity_failed' });
      break;
    }
  }
  summary.items += items;
}

function record(summary: ContentAnalyticsDailySummary, entry: ContentAnalyticsDailySummary['results'][number]): void {
  const before = summary.results.length;
  reportConnection(summary.results, entry);
  if (summary.results.length === before) summary.results_truncated = true;
}
