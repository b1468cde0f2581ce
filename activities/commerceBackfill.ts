import { Context } from '@temporalio/activity';
import {
  backfillPage,
  listBackfillConnections,
  reportBackfillFailure,
  type BackfillFailure,
  type BackfillPageInput,
  type BackfillPageResult,
} from '../src/commerce/backfill/service';
import type { ShopRef } from '../workflows/commerceShopRef.contract';
import type { ActivityDeps } from './deps';

/** Side effects of the `commerce-order-backfill` sweep: list the shops, recover one page of orders, report a failure. */
export function createCommerceBackfillActivities(deps: ActivityDeps) {
  return {
    /** Active connections of all accounts after `afterId` (id order), at most `limit`. */
    async listBackfillConnections(input: { afterId: string | null; limit: number }): Promise<ShopRef[]> {
      return listBackfillConnections(deps.db, input.afterId, input.limit);
    },

    /**
     * Fetches one page of the shop's orders and ingests it, so order payloads never enter workflow history.
     * Heartbeats when the page is ingested; a cancel (or worker shutdown) before the commit rolls the page back.
     */
    async backfillPage(input: BackfillPageInput): Promise<BackfillPageResult> {
      const ctx = Context.current();
      return backfillPage(deps, input, { signal: ctx.cancellationSignal, onProgress: (handled) => ctx.heartbeat({ handled }) });
    },

    async reportBackfillFailure(failure: BackfillFailure): Promise<{ inboxItemId: string; created: boolean }> {
      deps.logger.warn({ connectionId: failure.connectionId, code: failure.code }, 'commerce order backfill failed for a connection');
      return reportBackfillFailure(deps.db, failure);
    },
  };
}
