import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { Pool } from 'undici';
import { harness } from '../../helpers/harness';
import { commerceShopWorkflowId } from '../../../workflows/commerceShop.contract';
import { eventually, sign, type TestShop } from './receiverKit';

/** An order of a burst, as the test expects its effects. */
export interface BurstOrder {
  id: number;
  email: string | null;
  cents: number;
}

/**
 * Signed orders/create deliveries of `count` distinct orders (about four per customer, one in ten a guest), posted
 * to the receiver `concurrency` at a time; every one must be answered 200 as new. `during` runs while they post
 * (e.g. a fault injected mid-burst).
 */
export async function postOrderBurst(
  shop: TestShop,
  count: number,
  options: { concurrency?: number; firstId?: number; during?: (posted: () => number) => Promise<void> } = {},
): Promise<BurstOrder[]> {
  const firstId = options.firstId ?? 7_000_000_000;
  const customers = Math.max(1, Math.ceil(count / 4));
  const orders: BurstOrder[] = Array.from({ length: count }, (_, i) => ({
    id: firstId + i,
    email: i % 10 === 9 ? null : `burst-${i % customers}@${shop.shopDomain}.example`,
    cents: 1_000 + (i % 97) * 10,
  }));
  const pool = new Pool(harness().baseUrl, { connections: options.concurrency ?? 16 });
  let next = 0;
  let posted = 0;
  const post = async () => {
    while (next < orders.length) {
      const order = orders[next++];
      const stamp = '2026-11-01T10:00:00Z';
      const raw = JSON.stringify({
        id: order.id,
        name: `#${order.id}`,
        email: order.email,
        created_at: stamp,
        updated_at: stamp,
        currency: 'EUR',
        total_price: (order.cents / 100).toFixed(2),
        current_total_price: (order.cents / 100).toFixed(2),
        customer: order.email ? { id: order.id + 1, first_name: 'Burst', last_name: 'Buyer' } : null,
      });
      const res = await pool.request({
        method: 'POST',
        path: '/api/webhooks/commerce',
        headers: {
          'content-type': 'application/json',
          'x-commerce-shop-domain': shop.shopDomain,
          'x-commerce-hmac-sha256': sign(shop.clientSecret, raw),
          'x-commerce-topic': 'orders/create',
          'x-commerce-webhook-id': randomUUID(),
        },
        body: raw,
      });
      const text = await res.body.text();
      assert.equal(res.statusCode, 200, text);
      assert.equal(JSON.parse(text).duplicate, false, text);
      posted++;
    }
  };
  try {
    await Promise.all([...Array.from({ length: options.concurrency ?? 16 }, post), options.during?.(() => posted)]);
  } finally {
    await pool.close();
  }
  return orders;
}

/** Deliveries of the shop not processed yet. */
export async function unprocessed(shop: TestShop): Promise<number> {
  const [row] = await harness()
    .db('commerce_webhook_deliveries')
    .where({ connection_id: shop.connectionId })
    .whereNull('processed_at')
    .count<{ count: string }[]>('* as count');
  return Number(row.count);
}

/** Waits until every delivery of the shop is processed, failing if none was for `stallMs`. */
export async function drained(shop: TestShop, stallMs = 60_000): Promise<void> {
  let last = await unprocessed(shop);
  let progressAt = Date.now();
  while (last > 0) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const left = await unprocessed(shop);
    if (left < last) progressAt = Date.now();
    last = left;
    assert.ok(Date.now() - progressAt < stallMs, `${left} deliveries still unprocessed, none processed for ${stallMs / 1000} s`);
  }
}

/**
 * What a client can see of each accepted order delivery having been processed exactly once: every delivery
 * processed, one order-log row, one creation trigger and one CRM activity note per order, and contact rollups that
 * count each order once.
 */
export async function assertEachOrderOnce(shop: TestShop, orders: BurstOrder[]): Promise<void> {
  const { db } = harness();
  const deliveries = await db('commerce_webhook_deliveries')
    .where({ connection_id: shop.connectionId })
    .select(
      db.raw('count(*)::int as total'),
      db.raw("count(*) filter (where outcome = 'processed' and processed_at is not null)::int as processed"),
    );
  assert.deepEqual(deliveries[0], { total: orders.length, processed: orders.length }, 'every delivery processed');
  const [log] = await db('commerce_orders_log').where({ connection_id: shop.connectionId }).count<{ count: string }[]>('* as count');
  assert.equal(Number(log.count), orders.length, 'one order-log row per order');
  const [created] = await db('workflow_trigger_outbox')
    .where({ account_id: shop.accountId, trigger: 'commerce.order.created' })
    .count<{ count: string }[]>('* as count');
  assert.equal(Number(created.count), orders.length, 'one creation trigger per order');
  const known = orders.filter((o) => o.email);
  const [notes] = await db('crm_contact_activities')
    .where({ account_id: shop.accountId })
    .whereLike('external_id', 'commerce:order:%')
    .count<{ count: string }[]>('* as count');
  assert.equal(Number(notes.count), known.length, 'one activity note per order with a customer');
  const [rollups] = await db('crm_contacts')
    .where({ account_id: shop.accountId })
    .select(
      db.raw('coalesce(sum(commerce_order_count), 0)::int as orders'),
      db.raw('coalesce(sum(commerce_total_spent_cents), 0)::bigint as cents'),
    );
  assert.deepEqual(
    { orders: rollups.orders, cents: Number(rollups.cents) },
    { orders: known.length, cents: known.reduce((sum, o) => sum + o.cents, 0) },
    'contact rollups count each order once',
  );
}

/** The history length of every run of the shop's workflow (every chain of its id), oldest run first. */
export async function runHistoryLengths(client: Client, shop: TestShop): Promise<number[]> {
  const workflowId = commerceShopWorkflowId(shop.connectionId);
  const runs: Array<{ runId: string; startTime: Date }> = [];
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
    runs.push({ runId: run.runId, startTime: run.startTime });
  runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
  const lengths: number[] = [];
  for (const run of runs) {
    const history = await client.workflow.getHandle(workflowId, run.runId).fetchHistory();
    lengths.push(history.events?.length ?? 0);
  }
  return lengths;
}

export { eventually };
