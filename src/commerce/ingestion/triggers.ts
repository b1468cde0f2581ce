import type { Knex } from '../../db/knex';
import { writeTriggers, type TriggerName } from '../../triggers/outbox';
import type { OrderLogRow } from './store';

export type OrderTopic = 'orders/create' | 'orders/updated';

/**
 * The order triggers of one ingestion, written in its transaction, by the topic that brought each order:
 * - `commerce.order.created` only for an orders/create delivery, once per order (dedup `order:<connection>:<order>`),
 *   even when that delivery arrives after a newer update — the creation still happened once. The backfill ingests
 *   with orders/updated, so recovery never fires it;
 * - `commerce.order.updated` for an orders/updated delivery whose state was applied, once per order version
 *   (dedup `order:<connection>:<order>:<updated_at>`); a stale update fires nothing.
 * Both fire for guest orders (`contact_id` null). Set-based: one statement for the whole batch. Answers the
 * triggers newly written, per order id.
 */
export async function writeOrderTriggers(
  trx: Knex,
  accountId: string,
  rows: Array<{ row: OrderLogRow; applied: boolean; topic: OrderTopic }>,
): Promise<Map<string, TriggerName[]>> {
  const wanted: Array<{ orderId: string; trigger: TriggerName; dedupKey: string; payload: Record<string, unknown> }> = [];
  for (const { row, applied, topic } of rows) {
    const base = `order:${row.connection_id}:${row.order_id}`;
    if (topic === 'orders/create')
      wanted.push({ orderId: row.order_id, trigger: 'commerce.order.created', dedupKey: base, payload: orderTriggerPayload(row) });
    if (topic === 'orders/updated' && applied) {
      wanted.push({
        orderId: row.order_id,
        trigger: 'commerce.order.updated',
        dedupKey: `${base}:${row.order_updated_at?.toISOString() ?? 'unversioned'}`,
        payload: orderTriggerPayload(row),
      });
    }
  }
  const created = new Set((await writeTriggers(trx, accountId, wanted)).map((t) => `${t.trigger} ${t.dedupKey}`));
  const written = new Map<string, TriggerName[]>(rows.map(({ row }) => [row.order_id, []]));
  for (const w of wanted) if (created.has(`${w.trigger} ${w.dedupKey}`)) written.get(w.orderId)!.push(w.trigger);
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
