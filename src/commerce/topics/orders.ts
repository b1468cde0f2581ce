import type { Knex } from '../../db/knex';
import { ingestOrders, type IngestOrderResult, type OrderTopic } from '../ingestion/service';
import type { DeliveryContext, HandlerOutcome } from './types';

export const ORDER_TOPICS: ReadonlySet<string> = new Set<OrderTopic>(['orders/create', 'orders/updated']);

/** orders/create and orders/updated: the shared ingestion path (log row, CRM bridge, triggers). */
export async function handleOrder(db: Knex, ctx: DeliveryContext): Promise<HandlerOutcome> {
  const [outcome] = await handleOrders(db, [ctx]);
  return outcome;
}

/**
 * Order deliveries (orders/create and orders/updated) of one shop, in arrival order, through one set-based
 * `ingestOrders` call: each order's deliveries apply in their order, each with its own topic's triggers. One outcome
 * per delivery, in the order given. Each order's dates are clamped to its delivery's receipt. A payload that is not
 * an order (`readOrder`) is its delivery's `failed` outcome `invalid_order` — nothing written, nothing fired — while
 * the others go on; only infrastructure errors throw (for the caller to retry, or to fall back to one delivery at a
 * time).
 */
export async function handleOrders(db: Knex, ctxs: DeliveryContext[]): Promise<HandlerOutcome[]> {
  if (ctxs.length === 0) return [];
  const [{ accountId, connectionId }] = ctxs;
  if (ctxs.some((c) => !ORDER_TOPICS.has(c.topic) || c.connectionId !== connectionId || c.accountId !== accountId)) {
    throw new Error('handleOrders takes order deliveries of one shop');
  }
  const results = await ingestOrders(db, {
    accountId,
    connectionId,
    orders: ctxs.map((c) => c.payload),
    topic: ctxs.map((c) => c.topic as OrderTopic),
    receivedAt: ctxs.map((c) => new Date(c.receivedAt)),
  });
  return results.map(outcomeOf);
}

function outcomeOf(result: IngestOrderResult): HandlerOutcome {
  if (result.outcome === 'invalid') return { outcome: 'failed', code: 'invalid_order', message: result.reason };
  return {
    outcome: 'processed',
    detail: { order_id: result.orderId, state: result.outcome, triggers: result.triggers, bridge_failed: result.bridgeError !== null },
  };
}
