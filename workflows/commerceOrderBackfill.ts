import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ChildWorkflowFailure, executeChild, makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { AccountIdKey, ConnectionIdKey, JobKindKey } from './searchAttributes';
import type { OrderBackfillInput, OrderBackfillSummary, SkippedShop } from './commerceOrderBackfill.contract';
import type { ShopRef } from './commerceShopRef.contract';
import { commerceShopBackfill, emptyShopResult } from './commerceShopBackfill';
import { commerceShopBackfillContract, type ShopBackfillResult } from './commerceShopBackfill.contract';
import { trackProgress } from './progress';

const { listBackfillConnections } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '30 seconds', maximumAttempts: 5 },
});

const DEFAULT_BUDGET_MS = 10 * 60_000;
const DEFAULT_CONCURRENCY = 2;
const CONNECTIONS_PER_BATCH = 50;
const CONNECTIONS_PER_RUN = 500;
/** Per-connection lines kept in the summary; the totals always count every connection. */
const MAX_RESULTS = 500;

/**
 * The `commerce-order-backfill` sweep (hourly, `0 * * * *`, AccountId `_system`): every active connection of
 * every account gets a child workflow `commerce-order-backfill:<account>:<connection>` that recovers the orders
 * since its newest logged one (or the last 48 hours). One shop failing is reported (its child raises an inbox item)
 * and never stops the others; the summary counts what each connection did.
 */
export async function commerceOrderBackfill(input: OrderBackfillInput = {}): Promise<OrderBackfillSummary> {
  const deadline = input.deadline ?? Date.now() + (input.budgetMs ?? DEFAULT_BUDGET_MS);
  const summary: OrderBackfillSummary = input.summary ?? {
    partial: false,
    connections: 0,
    ingested: 0,
    unchanged: 0,
    invalid: 0,
    failed: 0,
    results: [],
    results_truncated: false,
  };
  const progress = trackProgress('connections');
  progress.advance(summary.connections);
  let afterId = input.afterId ?? null;

  for (let visited = 0; ;) {
    if (Date.now() >= deadline) return { ...summary, partial: true };
    if (visited >= CONNECTIONS_PER_RUN || (visited > 0 && workflowInfo().continueAsNewSuggested)) {
      const next = makeContinueAsNewFunc<typeof commerceOrderBackfill>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
      return next({ ...input, deadline, afterId, summary });
    }
    const batch = await listBackfillConnections({ afterId, limit: CONNECTIONS_PER_BATCH });
    await inParallel(batch, input.concurrency ?? DEFAULT_CONCURRENCY, async (connection) => {
      const result = Date.now() >= deadline ? skipped(connection, 'skipped') : await backfillShop(connection, input, deadline);
      record(summary, result);
      progress.advance();
    });
    visited += batch.length;
    if (batch.length < CONNECTIONS_PER_BATCH) return summary;
    afterId = batch[batch.length - 1].connectionId;
  }
}

async function backfillShop(connection: ShopRef, input: OrderBackfillInput, deadline: number): Promise<ShopBackfillResult | SkippedShop> {
  try {
    return await executeChild(commerceShopBackfill, {
      workflowId: `${commerceShopBackfillContract.jobKind}:${connection.accountId}:${connection.connectionId}`,
      args: [{ ...connection, pageSize: input.pageSize, pagesPerRun: input.pagesPerRun, deadline }],
      typedSearchAttributes: [
        { key: AccountIdKey, value: connection.accountId },
        { key: JobKindKey, value: commerceShopBackfillContract.jobKind },
        { key: ConnectionIdKey, value: connection.connectionId },
      ],
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return skipped(connection, 'already_running');
    if (!(err instanceof ChildWorkflowFailure)) throw err;
    // The child reports the failures it can see; one that failed itself (terminated, a bug) is counted here.
    return {
      ...emptyShopResult(connection),
      status: 'failed',
      error: { code: 'commerce_backfill_failed', message: err.cause?.message ?? err.message },
    };
  }
}

function skipped(connection: ShopRef, status: SkippedShop['status']): SkippedShop {
  return { connection_id: connection.connectionId, account_id: connection.accountId, shop_domain: connection.shopDomain, status };
}

function record(summary: OrderBackfillSummary, result: ShopBackfillResult | SkippedShop): void {
  summary.connections++;
  if (result.status === 'skipped' || result.status === 'partial') summary.partial = true;
  if (result.status === 'failed') summary.failed++;
  if ('ingested' in result) {
    summary.ingested += result.ingested;
    summary.unchanged += result.unchanged;
    summary.invalid += result.invalid;
  }
  if (summary.results.length < MAX_RESULTS) summary.results.push(result);
  else summary.results_truncated = true;
}

/** Runs `work` over `items`, at most `lanes` at a time (deterministic: lanes take items in order). */
async function inParallel<T>(items: T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, items.length)) }, lane));
}
