import type { Knex } from '../../db/knex';
import { ingestOrder, type OrderTopic } from '../ingestion/service';
import { DeliveryRejected, type DeliveryContext, type HandlerOutcome } from './types';

/** orders/create and orders/updated: the shared ingestion path (log row, CRM bridge, triggers). */
export async function handleOrder(db: Knex, ctx: DeliveryContext): Promise<HandlerOutcome> {
  const result = await ingestOrder(db, { accountId: ctx.accountId, connectionId: ctx.connectionId, order: ctx.payload, topic: ctx.topic as OrderTopic });
  if (result.outcome === 'invalid') throw new DeliveryRejected('invalid_order_payload', result.reason);
  return {
    outcome: 'processed',
    detail: { order_id: result.orderId, state: result.outcome, triggers: result.triggers, bridge_failed: result.bridgeError !== null },
  };
}
