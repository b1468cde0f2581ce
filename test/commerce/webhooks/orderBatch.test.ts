import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { jobSearchAttributes } from '../../../src/temporal/jobs';
import { commerceShopContract, type CommerceShopInput, commerceShopWorkflowId } from '../../../workflows/commerceShop.contract';
import { harness } from '../../helpers/harness';
import { eventually, newShop, orderPayload, type TestShop } from './receiverKit';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 10, minutes)).toISOString();

/** Records the deliveries (already handed over) and runs the shop's workflow over them; answers when all are processed. */
async function runThroughWorkflow(shop: TestShop, deliveries: Array<[string, unknown]>, batch?: number): Promise<string[]> {
  const { db, client, taskQueue } = harness();
  const ids: string[] = [];
  for (const [topic, payload] of deliveries) {
    const webhookId = randomUUID();
    await db('commerce_webhook_deliveries').insert({
      account_id: shop.accountId,
      connection_id: shop.connectionId,
      webhook_id: webhookId,
      topic,
      payload: JSON.stringify(payload),
      dispatched_at: new Date(),
    });
    ids.push(webhookId);
  }
  const input: CommerceShopInput = { accountId: shop.accountId, connectionId: shop.connectionId, batch };
  await client.workflow.start(commerceShopContract.workflowType, {
    workflowId: commerceShopWorkflowId(shop.connectionId),
    taskQueue,
    args: [input],
    typedSearchAttributes: jobSearchAttributes('commerce-shop', shop.accountId, { ConnectionId: shop.connectionId }),
  });
  await eventually(
    () =>
      db('commerce_webhook_deliveries')
        .where({ connection_id: shop.connectionId })
        .whereNull('processed_at')
        .count<{ count: string }[]>('* as count'),
    (rows) => Number(rows[0].count) === 0,
    30_000,
    'every delivery processed',
  );
  return ids;
}

/** What the deliveries left behind, in terms that do not depend on the shop's or account's ids. */
async function endState(shop: TestShop, ids: string[]) {
  const { db } = harness();
  const deliveries = await db('commerce_webhook_deliveries').where({ connection_id: shop.connectionId }).whereIn('webhook_id', ids);
  const byId = new Map(deliveries.map((d) => [d.webhook_id, d]));
  const contacts = await db('crm_contacts').where({ account_id: shop.accountId });
  const emailOf = new Map(contacts.map((c) => [c.id, c.email.toLowerCase()]));
  const logs = await db('commerce_orders_log').where({ connection_id: shop.connectionId }).orderBy('order_id');
  const triggers = await db('workflow_trigger_outbox').where({ account_id: shop.accountId }).whereLike('trigger', 'commerce.order.%');
  return {
    deliveries: ids.map((id) => {
      const d = byId.get(id);
      return [d.topic, d.outcome, d.error_code, d.processed_at !== null, d.payload === null];
    }),
    log: logs.map((r) => [
      r.order_id,
      Number(r.total_amount_cents),
      r.currency,
      r.customer_email,
      r.order_updated_at?.toISOString(),
      r.last_topic,
      r.first_order,
      r.crm_contact_id ? emailOf.get(r.crm_contact_id) : null,
    ]),
    rollups: contacts
      .map((c) => [
        c.email.toLowerCase(),
        Number(c.commerce_total_spent_cents),
        c.commerce_order_count,
        c.commerce_first_order_at?.toISOString(),
        c.commerce_first_order_id,
        c.commerce_last_order_at?.toISOString(),
      ])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    triggers: triggers
      .map((t) => {
        const p = typeof t.payload === 'string' ? JSON.parse(t.payload) : t.payload;
        return `${t.trigger} ${p.order_id} ${p.order_updated_at} ${p.total_amount_cents} ${p.first_order}`;
      })
      .sort(),
  };
}

describe('order deliveries batched by topic in the shop workflow', () => {
  it('an order delivery without currency or dates is recorded failed invalid_order, writes no order and fires nothing, while the valid orders of its batch are ingested', async function () {
    this.timeout(60_000);
    const shop = await newShop();
    const [first, second] = [orderPayload(), orderPayload()];
    const bad: unknown[] = [
      { id: 'abc' },
      { ...orderPayload(), currency: undefined },
      { ...orderPayload(), created_at: undefined, updated_at: undefined },
      { ...orderPayload(), updated_at: 'yesterday' },
      { ...orderPayload(), total_price: undefined, current_total_price: undefined },
      { ...orderPayload(), id: undefined },
    ];
    const ids = await runThroughWorkflow(shop, [
      ['orders/create', first],
      ...bad.map((p): [string, unknown] => ['orders/create', p]),
      ['orders/updated', second],
    ]);
    const { db } = harness();
    const records = await db('commerce_webhook_deliveries').where({ connection_id: shop.connectionId }).whereIn('webhook_id', ids);
    const byId = new Map(records.map((r) => [r.webhook_id, [r.outcome, r.error_code]]));
    assert.deepEqual(
      ids.map((id) => byId.get(id)),
      [['processed', null], ...bad.map(() => ['failed', 'invalid_order']), ['processed', null]],
    );
    const logged = await db('commerce_orders_log').where({ connection_id: shop.connectionId }).orderBy('order_id');
    assert.deepEqual(
      logged.map((r) => r.order_id),
      [String(first.id), String(second.id)].sort(),
    );
    const triggers = await db('workflow_trigger_outbox').where({ account_id: shop.accountId }).whereLike('trigger', 'commerce.order.%');
    assert.deepEqual(
      triggers.map((t) => `${t.trigger} ${t.payload.order_id}`).sort(),
      [`commerce.order.created ${first.id}`, `commerce.order.updated ${second.id}`].sort(),
      'only the valid orders fire',
    );
  });

  it('a burst of orders/create and orders/updated deliveries ends exactly as one-by-one processing does', async function () {
    this.timeout(90_000);
    const tag = randomBytes(4).toString('hex');
    const x = `burst-x-${tag}@example.test`;
    const y = `burst-y-${tag}@example.test`;
    const order = (id: number, email: string, created: number, updated: number, total: string) =>
      orderPayload({ id, email, created_at: at(created), updated_at: at(updated), current_total_price: total, total_price: total });
    const base = 7_000_000_000 + Math.floor(Math.random() * 1_000_000);
    const [a, b, c, d] = [base + 1, base + 2, base + 3, base + 4];
    const burst: Array<[string, unknown]> = [
      ['orders/create', order(a, x, 0, 0, '25.00')],
      ['orders/create', order(b, x, 1, 1, '10.00')],
      ['orders/updated', order(a, x, 0, 5, '30.00')], // the same order created then updated inside one batch
      ['orders/updated', order(a, x, 0, 5, '30.00')], // the same version again: no second trigger
      ['orders/updated', order(b, x, 1, 10, '12.00')],
      ['orders/updated', order(b, x, 1, 5, '11.00')], // older than the version applied just before: stale
      ['orders/create', order(c, y, 2, 2, '5.00')],
      ['orders/create', { email: y, current_total_price: '1.00' }], // no order id: failed, the others go on
      ['orders/updated', order(c, y, 2, 8, '6.00')],
      ['orders/create', order(a, x, 0, 0, '25.00')], // a late creation of a newer order: nothing but the (deduplicated) trigger
      ['products/update', { id: 1 }],
      ['orders/updated', order(a, x, 0, 20, '40.00')],
      ['orders/create', order(d, y, 3, 30, '7.00')],
    ];

    const batched = await newShop();
    const oneByOne = await newShop();
    const batchedIds = await runThroughWorkflow(batched, burst);
    const oneByOneIds = await runThroughWorkflow(oneByOne, burst, 1);
    const got = await endState(batched, batchedIds);
    const expected = await endState(oneByOne, oneByOneIds);

    assert.deepEqual(got, expected);
    assert.deepEqual(
      got.deliveries.map(([, outcome, code, processedAt, cleared]) => [outcome, code, processedAt, cleared]),
      [
        ...Array(7).fill(['processed', null, true, true]),
        ['failed', 'invalid_order', true, true],
        ...Array(2).fill(['processed', null, true, true]),
        ['processed', null, true, true],
        ...Array(2).fill(['processed', null, true, true]),
      ],
    );
    const count = (prefix: string) => got.triggers.filter((t) => t.startsWith(prefix)).length;
    assert.equal(count('commerce.order.created '), 4, 'one created trigger per order');
    assert.equal(count('commerce.order.updated '), 4, 'one updated trigger per applied version (a@5, b@10, c@8, a@20)');
    assert.deepEqual(
      got.log.map((r) => [r[0], r[1]]),
      [
        [String(a), 4000],
        [String(b), 1200],
        [String(c), 600],
        [String(d), 700],
      ],
    );
    assert.deepEqual(
      got.rollups.map((r) => [r[0], r[1], r[2]]),
      [
        [x, 5200, 2],
        [y, 1300, 2],
      ],
    );
  });
});
