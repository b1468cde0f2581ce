import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { tokenCipherOf } from '../../../src/commerce/connections/tokens';
import type { AppDeps } from '../../../src/deps';
import { createApp } from '../../../src/app/app';
import { createMetrics } from '../../../src/http/metrics';
import { SCHEDULES } from '../../../src/app/schedules';
import { AccountIdKey, ConnectionIdKey, JobKindKey, SYSTEM_ACCOUNT } from '../../../src/temporal/searchAttributes';
import type { OrderBackfillSummary } from '../../../workflows/commerceOrderBackfill.contract';
import { harness } from '../../helpers/harness';
import { callAt } from '../../helpers/http';
import {
  loggedCount,
  newConnectedShop,
  resultOf,
  retireConnectedShops,
  runShopBackfill,
  runSweep,
  startBackfillWorker,
  startCommerceWorld,
  type BackfillWorker,
  type CommerceWorld,
  type ConnectedShop,
} from './backfillKit';
import { commerceShopBackfillContract } from '../../../workflows/commerceShopBackfill.contract';

describe('commerce-order-backfill sweep', () => {
  let world: CommerceWorld;
  let worker: BackfillWorker;
  const taskQueue = `backfill-sweep-${randomUUID()}`;
  before(async () => {
    world = await startCommerceWorld();
    worker = await startBackfillWorker(world, taskQueue);
  });
  after(async () => {
    await retireConnectedShops();
    await worker?.stop();
    await world?.close();
  });

  const inboxItems = (shop: ConnectedShop) =>
    harness().db('inbox_items').where({ account_id: shop.accountId, kind: 'commerce_order_backfill_failed' });

  /** The shop's stored token replaced by one the platform never issued (as after a revocation). */
  async function revokeToken(shop: ConnectedShop) {
    const sealed = tokenCipherOf(harness().deps.config).encrypt(`revoked-${randomUUID()}`);
    await harness().db('commerce_connections').where({ id: shop.connectionId }).update({ admin_token_enc: sealed });
  }

  it("one connection failing does not stop the others and is reported once in its account's inbox", async () => {
    const healthy = await newConnectedShop(world);
    const revoked = await newConnectedShop(world);
    const flaky = await newConnectedShop(world);
    world.sim.addOrders(healthy.shopDomain, 4);
    world.sim.addOrders(flaky.shopDomain, 3);
    world.sim.addOrders(revoked.shopDomain, 2);
    await revokeToken(revoked);
    world.sim.injectFault({ path: `/${flaky.shopDomain}/admin/api/2025-04/orders.json`, kind: '5xx' });

    const summary = await runSweep(taskQueue);
    const failed = resultOf(summary, revoked);
    assert.equal(failed?.status, 'failed');
    assert.equal('error' in failed! && failed.error?.code, 'commerce_unauthorized');
    assert.deepEqual(
      ['status', 'ingested'].map((k) => (resultOf(summary, healthy) as any)[k]),
      ['done', 4],
    );
    assert.deepEqual(
      ['status', 'ingested'].map((k) => (resultOf(summary, flaky) as any)[k]),
      ['done', 3],
      'a platform 5xx is retried',
    );
    assert.ok(summary.failed >= 1 && !summary.partial);
    assert.deepEqual([await loggedCount(healthy.connectionId), await loggedCount(revoked.connectionId)], [4, 0]);

    const [item] = await inboxItems(revoked);
    assert.equal(item.dedup_key, `commerce:order-backfill-failed:${revoked.connectionId}`);
    assert.deepEqual([item.body.code, item.body.shop_domain], ['commerce_unauthorized', revoked.shopDomain]);
    assert.ok(!JSON.stringify(item.body).includes('revoked-'), 'no token in the inbox item');
    assert.equal((await inboxItems(healthy)).length, 0);

    const again = await runSweep(taskQueue);
    assert.equal(resultOf(again, revoked)?.status, 'failed');
    assert.equal((await inboxItems(revoked)).length, 1, 'the open item is not raised twice');
  });

  it("each shop runs as commerce-order-backfill:<account>:<connection> with the account's search attributes", async () => {
    const shop = await newConnectedShop(world);
    world.sim.addOrders(shop.shopDomain, 2);
    await runSweep(taskQueue);
    const run = await harness().client.workflow.getHandle(`commerce-order-backfill:${shop.accountId}:${shop.connectionId}`).describe();
    assert.equal(run.type, 'commerceShopBackfill');
    assert.equal(run.status.name, 'COMPLETED');
    assert.deepEqual(
      [
        run.typedSearchAttributes.get(AccountIdKey),
        run.typedSearchAttributes.get(JobKindKey),
        run.typedSearchAttributes.get(ConnectionIdKey),
      ],
      [shop.accountId, 'commerce-order-backfill', shop.connectionId],
    );
  });

  it('a shop whose backfill is still running (an overlapping run-now) is skipped as already_running', async () => {
    const shop = await newConnectedShop(world);
    const { client } = harness();
    // The same workflow id, open on a queue no worker polls: the sweep's child cannot start beside it.
    const blocker = await client.workflow.start(commerceShopBackfillContract.workflowType, {
      taskQueue: `nobody-${randomUUID()}`,
      workflowId: `commerce-order-backfill:${shop.accountId}:${shop.connectionId}`,
      args: [{ accountId: shop.accountId, connectionId: shop.connectionId, shopDomain: shop.shopDomain }],
    });
    try {
      const summary = await runSweep(taskQueue);
      assert.equal(resultOf(summary, shop)?.status, 'already_running');
    } finally {
      await blocker.terminate('test over');
    }
  });

  it('a spent budget stops the sweep cleanly with partial: true', async () => {
    const shop = await newConnectedShop(world);
    world.sim.addOrders(shop.shopDomain, 2);
    const summary = await runSweep(taskQueue, { budgetMs: 0 });
    assert.equal(summary.partial, true);
    const { result } = await runShopBackfill(taskQueue, shop, { deadline: Date.now() });
    assert.deepEqual([result.status, result.pages], ['partial', 0], 'a shop past its deadline stops before its next page');
    assert.equal(await loggedCount(shop.connectionId), 0);
  });

  it('is scheduled hourly at minute 0 (UTC), skipping overlaps', () => {
    const entry = SCHEDULES.find((s) => s.name === 'commerce-order-backfill');
    assert.deepEqual(entry && [entry.cron, entry.workflowType, entry.overlap], ['0 * * * *', 'commerceOrderBackfill', 'SKIP']);
  });

  it('POST /api/cron/commerce-order-backfill runs it now as a _system job', async () => {
    const shop = await newConnectedShop(world);
    world.sim.addOrders(shop.shopDomain, 3);
    // The product's schedule table, and runs on this file's worker (the one that reaches the simulator).
    const base = harness().deps;
    const deps: AppDeps = { ...base, schedules: SCHEDULES, temporal: { ...base.temporal, taskQueue }, metrics: createMetrics(false) };
    const server: Server = createApp(deps, []).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await callAt(baseUrl, 'POST', '/api/cron/commerce-order-backfill', { token: base.config.CRON_SECRET! });
      assert.equal(res.status, 202, res.text);
      assert.match(res.body.id, /^cron:commerce-order-backfill:[0-9a-f-]{36}$/);
      const { client } = harness();
      const handle = client.workflow.getHandle(res.body.id);
      const summary: OrderBackfillSummary = await client.withDeadline(Date.now() + 30_000, () => handle.result());
      assert.deepEqual(
        ['status', 'ingested'].map((k) => (resultOf(summary, shop) as any)[k]),
        ['done', 3],
      );
      const run = await handle.describe();
      assert.deepEqual([run.type, run.typedSearchAttributes.get(AccountIdKey)], ['commerceOrderBackfill', SYSTEM_ACCOUNT]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
