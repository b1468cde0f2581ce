import type { Knex } from '../../db/knex';
import { writeTrigger, type TriggerName } from '../../triggers/outbox';
import type { OrderLogRow } from './store';

export type OrderTopic = 'orders/create' | 'orders/updated';

/**
 * The order triggers of one ingestion, written in its transaction:
 * - `commerce.order.created` only for an orders/create delivery, once per order (dedup `order:<connection>:<order>`),
 *   even when that delivery arrives after a newer update — the creation still happened once. The backfill ingests
 *   with orders/updated, so recovery never fires it;
 * - `commerce.order.updated` for an orders/updated delivery whose state was applied, once per order version
 *   (dedup `order:<connection>:<order>:<updated_at>`); a stale update fires nothing.
 * Both fire for guest orders (`contact_id` null). Answers the triggers newly written.
 */
export async function writeOrderTriggers(trx: Knex, accountId: string, row: OrderLogRow, topic: OrderTopic, applied: boolean): Promise<TriggerName[]> {
  const base = `order:${row.connection_id}:${row.order_id}`;
  const wanted: Array<{ trigger: TriggerName; dedupKey: string }> = [];
  if (topic === 'orders/create') wanted.push({ trigger: 'commerce.order.created', dedupKey: base });
  if (topic === 'orders/updated' && applied) {
    wanted.push({ trigger: 'commerce.order.updated', dedupKey: `${base}:${row.order_updated_at?.toISOString() ?? 'unversioned'}` });
  }
  const written: TriggerName[] = [];
  for (const { trigger, dedupKey } of wanted) {
    const { created } = await writeTrigger(trx, accountId, { trigger, dedupKey, payload: orderTriggerPayload(row) });
    if (created) written.push(trigger);
  }
  return written;
}

export function orderTriggerPayload(row: OrderLogRow): Record<string, unknown> {
  return {
    connection_id: row.connection_id,
    order_id: row.order_id,
    order_number: row.order_number,
    contact_id: row.crm_contact_id,
    customer_email: row.customer_email,
    total_amount_cents: Number(row.total_amount_cents),
    currency: row.currency,
    first_order: row.first_order,
    order_created_at: row.order_created_at?.toISOString() ?? null,
    order_updated_at: row.order_updated_at?.toISOString() ?? null,
  };
}
