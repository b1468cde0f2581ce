import type { Knex } from '../../db/knex';
import { isTransientDbError } from '../../db/errors';
import type { Logger } from '../../logger';
import { handleOrders, ORDER_TOPICS } from '../topics/orders';
import { routeDelivery } from '../topics/router';
import type { DeliveryContext, HandlerOutcome, TopicEnv } from '../topics/types';
import { lockUnprocessed, nextDeliveries } from './drainStore';
import { recordDeliveryOutcome, recordDeliveryOutcomes } from './outcomes';

export interface ShopDrainDeps extends TopicEnv {
  db: Knex;
  logger: Logger;
}

export interface ShopDrainOptions {
  /** Deliveries one transaction takes. */
  batch: number;
  /** The pass ends at the first delivery boundary past this many milliseconds (what was done is committed). */
  budgetMs: number;
  /** The pass ends once this many privacy requests were logged (the workflow starts each one's fulfilment). */
  maxPrivacyRequests: number;
  /**
   * Each delivery in its own transaction, and one whose handler throws something other than a database outage is
   * recorded as failed (`handler_error`): how a batch that keeps failing finds the delivery at fault and moves on.
   */
  isolate: boolean;
}

/** What one drain pass did. */
export interface ShopDrainPass {
  /** Deliveries given an outcome (processed, ignored or failed). */
  handled: number;
  failed: number;
  /** More deliveries may be waiting: the pass ended on its batch size, budget or privacy-request bound. */
  more: boolean;
  /** Privacy requests logged by this pass, for their fulfilment to start. */
  privacyRequestIds: string[];
}

interface Done {
  ctx: DeliveryContext;
  outcome: HandlerOutcome;
}

/**
 * One pass over a shop's outbox: the deliveries handed over and not yet processed, oldest first, in batches. A
 * batch is one transaction — the deliveries locked, handled, their outcomes written, committed together — so a
 * delivery's effects and its `processed_at` land at once, exactly once, however often a pass is retried or raced.
 * Within a batch, consecutive order deliveries (both order topics) are ingested as ONE set (each order's deliveries
 * still apply in arrival order); every other delivery is routed alone, in its place.
 */
export async function drainShopDeliveries(
  deps: ShopDrainDeps,
  shop: { accountId: string; connectionId: string },
  options: ShopDrainOptions,
): Promise<ShopDrainPass> {
  const pass: ShopDrainPass = { handled: 0, failed: 0, more: false, privacyRequestIds: [] };
  const stopAt = Date.now() + options.budgetMs;
  const full = () => Date.now() >= stopAt || pass.privacyRequestIds.length >= options.maxPrivacyRequests;
  for (;;) {
    const batch = options.isolate ? await isolatedBatch(deps, shop, options.batch, full) : await setBatch(deps, shop, options.batch, full);
    for (const { ctx, outcome } of batch.done) tally(deps, pass, ctx, outcome);
    if (batch.cut || batch.taken === options.batch) {
      pass.more = true;
      // An isolated pass works one batch: the next pass goes back to whole transactions.
      if (full() || options.isolate) return pass;
    } else return pass;
  }
}

/** One transaction: lock the next deliveries, handle them in order (segment by segment), record every outcome. */
async function setBatch(deps: ShopDrainDeps, shop: { accountId: string; connectionId: string }, limit: number, full: () => boolean) {
  return deps.db.transaction(async (trx) => {
    const deliveries = await nextDeliveries(trx, shop.accountId, shop.connectionId, limit, true);
    const done: Done[] = [];
    let cut = false;
    for (const segment of segmentsOf(deliveries)) {
      if (done.length > 0 && full()) {
        cut = true;
        break;
      }
      const outcomes = ORDER_TOPICS.has(segment[0].topic) ? await handleOrders(trx, segment) : [await routeDelivery(trx, segment[0], deps)];
      segment.forEach((ctx, i) => done.push({ ctx, outcome: outcomes[i] }));
    }
    await recordDeliveryOutcomes(
      trx,
      done.map(({ ctx, outcome }) => ({ ref: ctx, outcome })),
    );
    return { taken: deliveries.length, done, cut };
  });
}

/** The next deliveries, each in its own transaction; a delivery whose handler keeps throwing is recorded as failed. */
async function isolatedBatch(deps: ShopDrainDeps, shop: { accountId: string; connectionId: string }, limit: number, full: () => boolean) {
  const deliveries = await nextDeliveries(deps.db, shop.accountId, shop.connectionId, limit, false);
  const done: Done[] = [];
  let cut = false;
  for (const ctx of deliveries) {
    if (done.length > 0 && full()) {
      cut = true;
      break;
    }
    try {
      const outcome = await deps.db.transaction(async (trx) => {
        if (!(await lockUnprocessed(trx, ctx.accountId, ctx.connectionId, ctx.webhookId))) return undefined;
        const [result] = ORDER_TOPICS.has(ctx.topic) ? await handleOrders(trx, [ctx]) : [await routeDelivery(trx, ctx, deps)];
        await recordDeliveryOutcome(trx, ctx, result);
        return result;
      });
      if (outcome) done.push({ ctx, outcome });
    } catch (err) {
      if (isTransientDbError(err)) throw err;
      deps.logger.error(
        { connectionId: ctx.connectionId, topic: ctx.topic, webhookId: ctx.webhookId, err },
        'commerce delivery handler failed',
      );
      const outcome: HandlerOutcome = { outcome: 'failed', code: 'handler_error', message: 'the handler kept failing after every retry' };
      const recorded = await deps.db.transaction(async (trx) => {
        if (!(await lockUnprocessed(trx, ctx.accountId, ctx.connectionId, ctx.webhookId))) return false;
        await recordDeliveryOutcome(trx, ctx, outcome);
        return true;
      });
      if (recorded) done.push({ ctx, outcome });
    }
  }
  return { taken: deliveries.length, done, cut };
}

function tally(deps: ShopDrainDeps, pass: ShopDrainPass, ctx: DeliveryContext, outcome: HandlerOutcome): void {
  pass.handled++;
  if (outcome.outcome === 'failed') {
    pass.failed++;
    deps.logger.warn(
      { connectionId: ctx.connectionId, topic: ctx.topic, webhookId: ctx.webhookId, code: outcome.code },
      'commerce delivery rejected by its handler',
    );
    return;
  }
  const requestId = outcome.detail?.compliance_request_id;
  if (typeof requestId === 'string') pass.privacyRequestIds.push(requestId);
}

/** Consecutive order deliveries together (both order topics), every other delivery alone; arrival order kept. */
function segmentsOf(deliveries: DeliveryContext[]): DeliveryContext[][] {
  const segments: DeliveryContext[][] = [];
  for (const d of deliveries) {
    const last = segments.at(-1);
    if (last && ORDER_TOPICS.has(d.topic) && ORDER_TOPICS.has(last[0].topic)) last.push(d);
    else segments.push([d]);
  }
  return segments;
}
