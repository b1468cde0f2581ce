import { handleOrders, ORDER_TOPICS } from '../src/commerce/topics/orders';
import { routeDelivery } from '../src/commerce/topics/router';
import type { DeliveryContext, HandlerOutcome } from '../src/commerce/topics/types';
import { loadDeliveries, recordDeliveryOutcome, recordDeliveryOutcomes } from '../src/commerce/webhooks/outcomes';
import type { ActivityDeps } from './deps';

export interface DeliverySummary {
  webhookId: string;
  outcome: 'processed' | 'failed' | 'ignored';
  code?: string;
  /** What the handler did (order state, triggers written …), shown in the activity's result in the Temporal UI. */
  detail?: Record<string, unknown>;
}

export interface DeliveryBatch {
  accountId: string;
  connectionId: string;
  /** In arrival order. */
  webhookIds: string[];
}

/** Side effects of the shops' entity workflows: recorded deliveries routed by topic, each outcome recorded. */
export function createCommerceActivities(deps: ActivityDeps) {
  /**
   * Loads the deliveries from their records and handles them in the order given. A delivery already processed (a
   * re-sent signal, or a retry of this batch after part of it was done) or gone (purged) is skipped. Consecutive
   * deliveries of the same order topic are ingested together (one set-based call, outcomes recorded together);
   * every other delivery is routed alone. A payload its handler rejects is recorded as failed; anything else
   * throws, and the retry resumes at the first delivery not yet recorded.
   */
  async function processDeliveries(batch: DeliveryBatch): Promise<DeliverySummary[]> {
    const stored = await loadDeliveries(deps.db, batch.accountId, batch.connectionId, batch.webhookIds);
    const live: DeliveryContext[] = [];
    for (const webhookId of batch.webhookIds) {
      const delivery = stored.get(webhookId);
      if (!delivery || delivery.processed) continue;
      const { processed: _processed, ...about } = delivery;
      live.push({ accountId: batch.accountId, connectionId: batch.connectionId, ...about });
    }
    const summaries: DeliverySummary[] = [];
    for (const run of runsOf(live)) {
      if (run.length > 1 && ORDER_TOPICS.has(run[0].topic)) summaries.push(...(await processOrderRun(run)));
      else for (const ctx of run) summaries.push(await processOne(ctx));
    }
    return summaries;
  }

  /** One delivery through the topic router, its outcome recorded. */
  async function processOne(ctx: DeliveryContext): Promise<DeliverySummary> {
    const result = await routeDelivery(deps.db, ctx, deps);
    await recordDeliveryOutcome(deps.db, ctx, result);
    return summaryOf(ctx, result);
  }

  /**
   * A run of deliveries of one order topic through one `ingestOrders` call. Should that call throw, the run is
   * worked one delivery at a time, so only the delivery at fault throws (and is isolated by the workflow's retries).
   */
  async function processOrderRun(run: DeliveryContext[]): Promise<DeliverySummary[]> {
    let outcomes: HandlerOutcome[];
    try {
      outcomes = await handleOrders(deps.db, run);
    } catch (err) {
      deps.logger.warn(
        { connectionId: run[0].connectionId, topic: run[0].topic, deliveries: run.length, err },
        'commerce order batch failed; handling its deliveries one at a time',
      );
      const summaries: DeliverySummary[] = [];
      for (const ctx of run) summaries.push(await processOne(ctx));
      return summaries;
    }
    await recordDeliveryOutcomes(
      deps.db,
      run.map((ref, i) => ({ ref, outcome: outcomes[i] })),
    );
    return run.map((ctx, i) => summaryOf(ctx, outcomes[i]));
  }

  function summaryOf(ctx: DeliveryContext, result: HandlerOutcome): DeliverySummary {
    if (result.outcome !== 'failed') return { webhookId: ctx.webhookId, outcome: result.outcome, detail: result.detail };
    deps.logger.warn(
      { connectionId: ctx.connectionId, topic: ctx.topic, webhookId: ctx.webhookId, code: result.code },
      'commerce delivery rejected by its handler',
    );
    return { webhookId: ctx.webhookId, outcome: 'failed', code: result.code };
  }

  return {
    /** Up to DELIVERIES_PER_ACTIVITY deliveries of one shop, in arrival order. */
    processCommerceDeliveries: processDeliveries,

    /** One delivery (the fallback when its batch keeps failing): answers its summary, or none when skipped. */
    async processCommerceDelivery(ref: { accountId: string; connectionId: string; webhookId: string }): Promise<DeliverySummary[]> {
      return processDeliveries({ accountId: ref.accountId, connectionId: ref.connectionId, webhookIds: [ref.webhookId] });
    },

    /** Records a delivery whose handler kept failing after every retry. */
    async recordCommerceDeliveryFailure(ref: { accountId: string; connectionId: string; webhookId: string; code: string }): Promise<void> {
      const delivery = (await loadDeliveries(deps.db, ref.accountId, ref.connectionId, [ref.webhookId])).get(ref.webhookId);
      if (!delivery || delivery.processed) return;
      await recordDeliveryOutcome(
        deps.db,
        { ...ref, topic: delivery.topic, shopDomain: delivery.shopDomain },
        {
          outcome: 'failed',
          code: ref.code,
          message: 'the handler kept failing after every retry',
        },
      );
    },
  };
}

/** Consecutive deliveries of the same topic, in order (arrival order is kept across runs). */
function runsOf(deliveries: DeliveryContext[]): DeliveryContext[][] {
  const runs: DeliveryContext[][] = [];
  for (const d of deliveries) {
    const last = runs.at(-1);
    if (last && last[0].topic === d.topic) last.push(d);
    else runs.push([d]);
  }
  return runs;
}
