import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { commerceOrderBackfillContract, type OrderBackfillSummary } from '../../../workflows/commerceOrderBackfill.contract';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import {
  loggedCount,
  newConnectedShop,
  resultOf,
  retireConnectedShops,
  startBackfillWorker,
  startCommerceWorld,
  type CommerceWorld,
} from './backfillKit';

const ORDERS = 5000;

describe('commerce order backfill survives a killed worker', () => {
  let world: CommerceWorld;
  before(async () => {
    world = await startCommerceWorld();
  });
  after(async () => {
    await retireConnectedShops();
    await world?.close();
  });

  it(`a worker stopped mid-backfill of ${ORDERS} orders: a new worker finishes with exactly ${ORDERS} log rows and exact rollups`, async function () {
    this.timeout(120_000);
    const shop = await newConnectedShop(world);
    const orders = world.sim.addOrders(shop.shopDomain, ORDERS);
    const taskQueue = `backfill-kill-${randomUUID()}`;
    const { client } = harness();

    const first = await startBackfillWorker(world, taskQueue);
    const started = Date.now();
    const handle = await client.workflow.start(commerceOrderBackfillContract.workflowType, {
      taskQueue,
      workflowId: `test-order-backfill-kill:${randomUUID()}`,
      args: [{ pageSize: 250, pagesPerRun: 8 }],
    });
    const seen = await eventually(
      () => loggedCount(shop.connectionId),
      (n) => n >= 1000,
      60_000,
      '1,000 orders logged',
    );
    await first.stop();
    const atStop = await loggedCount(shop.connectionId);
    const firstPhaseSeconds = (Date.now() - started) / 1000;
    assert.ok(seen >= 1000 && atStop < ORDERS, `stopped mid-way (${atStop} logged)`);
    assert.equal((await handle.describe()).status.name, 'RUNNING');

    const second = await startBackfillWorker(world, taskQueue);
    const resumed = Date.now();
    let summary: OrderBackfillSummary;
    try {
      summary = await client.withDeadline(Date.now() + 90_000, () => handle.result());
    } finally {
      await second.stop();
    }
    const secondPhaseSeconds = (Date.now() - resumed) / 1000;
    const result = resultOf(summary, shop) as any;
    assert.equal(result.status, 'done');
    assert.ok(result.runs > 1, "the shop's backfill continued as new");

    const { db } = harness();
    const logged = await db('commerce_orders_log').where({ connection_id: shop.connectionId }).pluck('order_id');
    assert.equal(logged.length, ORDERS);
    assert.deepEqual(new Set(logged), new Set(orders.map((o) => String(o.id))), "the log keeps the platform's integer ids as text");

    // Every contact's rollups equal a recount of the log, and the log's amounts are the shop's.
    const recount = await db('commerce_orders_log')
      .where({ account_id: shop.accountId })
      .whereNotNull('crm_contact_id')
      .groupBy('crm_contact_id')
      .select('crm_contact_id', db.raw('count(*)::int as count'), db.raw('sum(total_amount_cents)::bigint as total'));
    const contacts = await db('crm_contacts')
      .where({ account_id: shop.accountId })
      .where('commerce_order_count', '>', 0)
      .select('id', 'commerce_order_count', 'commerce_total_spent_cents');
    const byId = new Map(recount.map((r) => [r.crm_contact_id, [r.count, Number(r.total)]]));
    assert.equal(contacts.length, byId.size);
    for (const c of contacts)
      assert.deepEqual([c.commerce_order_count, Number(c.commerce_total_spent_cents)], byId.get(c.id), `rollups of contact ${c.id}`);
    const shopTotal = orders.filter((o) => o.email).reduce((sum, o) => sum + Math.round(Number(o.total_price) * 100), 0);
    assert.equal(
      [...byId.values()].reduce((sum, [, total]) => sum + total, 0),
      shopTotal,
    );
    assert.equal(
      await db('workflow_trigger_outbox')
        .where({ account_id: shop.accountId, trigger: 'commerce.order.created' })
        .count({ n: '*' })
        .first()
        .then((r) => Number(r!.n)),
      0,
    );

    // Determinism guard: the sweep's history (children, a restart in the middle) replays with the current bundle.
    await Worker.runReplayHistory({ workflowBundle: harness().bundle }, await handle.fetchHistory(), handle.workflowId);

    if (process.env.BACKFILL_RATE) {
      console.log(
        `    ${atStop} orders before the stop in ${firstPhaseSeconds.toFixed(1)} s; ${ORDERS - atStop} after it in ${secondPhaseSeconds.toFixed(1)} s` +
          ` (${(ORDERS / (firstPhaseSeconds + secondPhaseSeconds)).toFixed(0)} orders/s overall)`,
      );
    }
  });
});
