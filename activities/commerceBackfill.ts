import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  backfillPage, listBackfillConnections, reportBackfillFailure,
  type BackfillConnection, type BackfillFailure, type BackfillPageInput, type BackfillPageResult,
} from '../src/commerce/backfill/service';
import { ApiError } from '../src/http/errors';
import type { ActivityDeps } from './deps';

/** Platform trouble that may pass; every other coded error (revoked token, disconnected shop, 4xx) repeats itself. */
const RETRYABLE_CODES = new Set(['commerce_unavailable', 'commerce_rate_limited']);

/** A coded ApiError as a Temporal failure: `type` is the code, retried only when retrying can help. */
function asFailure(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  const retryAfter = err.extra.retryAfterSeconds;
  return ApplicationFailure.create({
    type: err.code,
    message: err.message,
    nonRetryable: !RETRYABLE_CODES.has(err.code),
    details: [{ status: err.status }],
    ...(retryAfter ? { nextRetryDelay: `${retryAfter} seconds` } : {}),
  });
}

/** Side effects of the `commerce-order-backfill` sweep: list the shops, recover one page of orders, report a failure. */
export function createCommerceBackfillActivities(deps: ActivityDeps) {
  return {
    /** Active connections of all accounts after `afterId` (id order), at most `limit`. */
    async listBackfillConnections(input: { afterId: string | null; limit: number }): Promise<BackfillConnection[]> {
      return listBackfillConnections(deps.db, input.afterId, input.limit);
    },

    /**
     * Fetches one page of the shop's orders and ingests it, so order payloads never enter workflow history.
     * Heartbeats when the page is ingested; a cancel (or worker shutdown) before the commit rolls the page back.
     */
    async backfillPage(input: BackfillPageInput): Promise<BackfillPageResult> {
      const ctx = Context.current();
      try {
        return await backfillPage(deps, input, { signal: ctx.cancellationSignal, onProgress: (handled) => ctx.heartbeat({ handled }) });
      } catch (err) {
        throw asFailure(err);
      }
    },

    async reportBackfillFailure(failure: BackfillFailure): Promise<{ inboxItemId: string; created: boolean }> {
      deps.logger.warn({ connectionId: failure.connectionId, code: failure.code }, 'commerce order backfill failed for a connection');
      return reportBackfillFailure(deps.db, failure);
    },
  };
}
