import { makeContinueAsNewFunc, workflowInfo, type ActivityOptions, type RetryPolicy } from '@temporalio/workflow';
import { trackProgress } from './progress';
import { startSweepBudget, type SweepInput } from './sweepBudget';

/** The input of a sweep that continues as new when its history grows: what one run hands the next. */
export interface ResumableSweepInput<Summary> extends SweepInput {
  /** Internal: carried across continue-as-new. */
  after?: string | null;
  summary?: Summary;
}

export type SweepProgress = ReturnType<typeof trackProgress>;

/** The options of a sweep's page activity: one page read (or checked) in the database, retried a few times. */
export const PAGE_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
};

/**
 * The retries of a sweep's activity per row: what the platform (or collector) fails with comes back as a result;
 * what throws is the database, worth a retry.
 */
export const ROW_ACTIVITY_RETRY: RetryPolicy = {
  initialInterval: '5 seconds',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 3,
};

/** The cursor of the page after `page`: null after the last (a page that ends the run, nothing configured, has none). */
const nextOf = (page: object): string | null => ('next' in page && typeof page.next === 'string' ? page.next : null);

/** What sets one paged sweep apart; `runSweep` does the rest. */
export interface PagedSweep<Summary extends { partial: boolean }, Page extends object, Item = never> {
  /** The `progress` query's phase. */
  phase: string;
  /** The summary a run starts with when it carries none. */
  fresh(): Summary;
  /** One page of at most `limit` rows from the cursor `after` (null: the first page), with the cursor `next` of the one after. */
  page(after: string | null, limit: number): Promise<Page>;
  /**
   * Folds what the page itself answered into the summary. A summary returned ends the run with it (nothing is
   * configured to sweep with).
   */
  fold?(summary: Summary, page: Page, progress: SweepProgress): Summary | void | Promise<Summary | void>;
  /** The page's rows handled one by one (an activity each), each only while the budget lasts. */
  each?: { items(page: Page): readonly Item[]; visit(summary: Summary, item: Item): Promise<void> };
  /**
   * Set for a sweep that continues as new when Temporal suggests it (after a page): how many rows a carried summary
   * has done (the `progress` count it resumes at), and what else the next run takes.
   */
  resume?: { done(summary: Summary): number; carry?(): object };
}

/** A page activity's answer when nothing is configured to sweep with (`code` says what is missing). */
type Unconfigured = { configured: false; code: string };

/** For a sweep's `fold`: ends the run on a page with nothing configured (the summary with `configured: false` and the code). */
export function endUnconfigured<Summary>(summary: Summary, page: { configured: true } | Unconfigured) {
  return page.configured ? undefined : { ...summary, configured: false, code: page.code };
}

/** For a sweep's `each.items`: the connections of a page, none when nothing is configured. */
export function configuredConnections<Row>(page: { configured: true; connections: readonly Row[] } | Unconfigured): readonly Row[] {
  return page.configured ? page.connections : [];
}

/**
 * Runs a paged sweep within its budget: page after page from the cursor, each folded into the summary and its rows
 * visited, until the last page (the summary), the budget is spent (the summary so far, `partial: true`), or the
 * history grows long enough for the run to continue as new with its cursor, deadline and summary.
 */
export async function runSweep<Summary extends { partial: boolean }, Page extends object, Item = never>(
  input: ResumableSweepInput<Summary>,
  sweep: PagedSweep<Summary, Page, Item>,
): Promise<Summary> {
  const budget = startSweepBudget(input);
  const progress = trackProgress(sweep.phase);
  const summary = (sweep.resume ? input.summary : undefined) ?? sweep.fresh();
  if (sweep.resume) progress.advance(sweep.resume.done(summary));
  for (let after = sweep.resume ? (input.after ?? null) : null; ;) {
    if (budget.spent()) return { ...summary, partial: true };
    const page = await sweep.page(after, budget.pageSize);
    const ended = await sweep.fold?.(summary, page, progress);
    if (ended) return ended;
    for (const item of sweep.each?.items(page) ?? []) {
      if (budget.spent()) return { ...summary, partial: true };
      await sweep.each?.visit(summary, item);
      progress.advance();
    }
    const next = nextOf(page);
    if (!next) return summary;
    after = next;
    if (sweep.resume && workflowInfo().continueAsNewSuggested) {
      const continueAsNew = makeContinueAsNewFunc<(next: ResumableSweepInput<Summary>) => Promise<Summary>>({
        typedSearchAttributes: workflowInfo().typedSearchAttributes,
      });
      return continueAsNew({ ...input, deadline: budget.deadline, after, summary, ...sweep.resume.carry?.() });
    }
  }
}
