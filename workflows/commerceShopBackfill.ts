import {
  ActivityFailure,
  ApplicationFailure,
  log,
  makeContinueAsNewFunc,
  proxyActivities,
  TimeoutFailure,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ShopBackfillInput, ShopBackfillResult } from './commerceShopBackfill.contract';
import { trackProgress } from './progress';

const { backfillPage } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  // Platform outages and the database are retried; a refused token or a gone shop fails at once (non-retryable).
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 4 },
});
const { reportBackfillFailure } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

export const DEFAULT_PAGE_SIZE = 250;
export const DEFAULT_PAGES_PER_RUN = 20;

export function emptyShopResult(input: Pick<ShopBackfillInput, 'accountId' | 'connectionId' | 'shopDomain'>): ShopBackfillResult {
  return {
    connection_id: input.connectionId,
    account_id: input.accountId,
    shop_domain: input.shopDomain,
    status: 'running',
    window_start: null,
    pages: 0,
    fetched: 0,
    ingested: 0,
    unchanged: 0,
    invalid: 0,
    bridge_errors: 0,
    newest_updated_at: null,
    runs: 1,
    error: null,
  };
}

/**
 * The backfill of one connection (`commerce-order-backfill:<account>:<connection>`): pages through the shop's
 * orders since the window start, each page one activity that fetches AND ingests it (payloads never enter history).
 * Every `pagesPerRun` pages, or when suggested, it continues as new carrying the cursor, so a shop of any size keeps
 * a short history; a worker killed mid-page redoes that page only (ingestion is idempotent).
 */
export async function commerceShopBackfill(input: ShopBackfillInput): Promise<ShopBackfillResult> {
  const result: ShopBackfillResult = input.carried ? { ...input.carried } : emptyShopResult(input);
  const progress = trackProgress('orders');
  progress.advance(result.fetched);
  const perRun = input.pagesPerRun ?? DEFAULT_PAGES_PER_RUN;
  let pageInfo = input.pageInfo ?? null;

  for (let pagesThisRun = 0; ; pagesThisRun++) {
    if (input.deadline && Date.now() >= input.deadline) return { ...result, status: 'partial' };
    if (pagesThisRun > 0 && (pagesThisRun >= perRun || workflowInfo().continueAsNewSuggested)) {
      const next = makeContinueAsNewFunc<typeof commerceShopBackfill>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
      return next({ ...input, pageInfo, carried: { ...result, runs: result.runs + 1 } });
    }
    let page;
    try {
      page = await backfillPage({
        accountId: input.accountId,
        connectionId: input.connectionId,
        pageInfo,
        limit: input.pageSize ?? DEFAULT_PAGE_SIZE,
      });
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      return { ...result, status: 'failed', error: await report(input, err) };
    }
    result.pages++;
    result.window_start ??= page.windowStart;
    result.fetched += page.fetched;
    result.ingested += page.ingested;
    result.unchanged += page.unchanged;
    result.invalid += page.invalid;
    result.bridge_errors += page.bridgeErrors;
    if (page.newestUpdatedAt && (!result.newest_updated_at || page.newestUpdatedAt > result.newest_updated_at))
      result.newest_updated_at = page.newestUpdatedAt;
    progress.advance(page.fetched);
    if (!page.nextPageInfo) return { ...result, status: 'done' };
    pageInfo = page.nextPageInfo;
  }
}

/** The failure's code and message, raised in the account's inbox (deduplicated per connection). */
async function report(input: ShopBackfillInput, err: ActivityFailure): Promise<{ code: string; message: string }> {
  const cause = err.cause;
  const error =
    cause instanceof ApplicationFailure && cause.type
      ? { code: cause.type, message: cause.message }
      : {
          code: cause instanceof TimeoutFailure ? 'commerce_backfill_timeout' : 'commerce_backfill_failed',
          message: cause?.message ?? err.message,
        };
  try {
    await reportBackfillFailure({ accountId: input.accountId, connectionId: input.connectionId, shopDomain: input.shopDomain, ...error });
  } catch (reportErr) {
    if (!(reportErr instanceof ActivityFailure)) throw reportErr;
    log.error('commerce backfill failure could not be reported', { connectionId: input.connectionId, code: error.code });
  }
  return error;
}
