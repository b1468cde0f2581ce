import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client } from '@temporalio/client';
import { unreachableTemporal } from '../../helpers/unreachableTemporal';
import { DeliveryDispatcher } from '../../../src/commerce/webhooks/dispatcher';
import { createApp } from '../../../src/app/app';
import { GROUP_COMMIT_MAX_ROWS } from '../../../src/commerce/webhooks/groupCommit';
import { commerceShopContract, commerceShopWorkflowId, deliveriesSignal } from '../../../workflows/commerceShop.contract';
import { progressQuery } from '../../../workflows/progress.contract';
import { harness } from '../../helpers/harness';
import { deliver, deliveryRecords, eventually, newShop, processed, withoutRelay, type TestShop } from './receiverKit';

const undispatched = async (shop: TestShop) =>
  (await harness().db('commerce_webhook_deliveries').where({ connection_id: shop.connectionId }).whereNull('dispatched_at')).length;

const invalidations = async (shop: TestShop) =>
  (await harness().db('commerce_cache_invalidations').where({ connection_id: shop.connectionId })).length;

const unreachableClient = () => unreachableTemporal(harness().deps.temporal.namespace);

describe('commerce webhook outbox: group commit and relay', () => {
  it('concurrent deliveries are group-committed: all answer 200, one record each, and copies in the same batch are duplicates', async function () {
    this.timeout(30_000);
    const shop = await newShop();
    const ids = Array.from({ length: GROUP_COMMIT_MAX_ROWS + 40 }, () => randomUUID());
    // Every tenth delivery is sent twice in the same burst.
    const sends = [...ids, ...ids.filter((_, i) => i % 10 === 0)];
    const answers = await Promise.all(sends.map((webhookId, i) => deliver(shop, 'products/update', { id: i }, { webhookId })));
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
    const fresh = answers.filter((a) => a.body.duplicate === false).map((a) => a.webhookId);
    assert.equal(fresh.length, ids.length, 'each webhook id is accepted as new exactly once');
    assert.deepEqual(new Set(fresh), new Set(ids));
    const records = await deliveryRecords(shop);
    assert.equal(records.length, ids.length, 'one record per webhook id');
    const statements = new Set(records.map((r: any) => r.received_at.getTime())).size;
    assert.ok(statements < ids.length, `concurrent rows share insert statements (${statements} statements for ${ids.length} rows)`);
    await eventually(
      () => invalidations(shop),
      (n) => n === ids.length,
      20_000,
      'every delivery processed once',
    );
  });

  it("the receiver's 200 does not call Temporal: an app whose Temporal client fails still accepts and records the delivery", async () => {
    const shop = await newShop();
    await withoutRelay(async () => {
      const broken = unreachableClient();
      try {
        const app = await startBrokenTemporalApp(broken);
        try {
          const res = await deliver(shop, 'products/update', { id: 1 }, { baseUrl: app.baseUrl });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body.duplicate, false);
          const [record] = await deliveryRecords(shop);
          assert.deepEqual([record.webhook_id, record.processed_at], [res.webhookId, null]);
          assert.equal(await undispatched(shop), 1, 'recorded, waiting for the relay');
        } finally {
          await app.close();
        }
      } finally {
        await broken.connection.close().catch(() => undefined);
      }
    });
    await eventually(
      () => undispatched(shop),
      (n) => n === 0,
      10_000,
      'the relay to hand it over once running again',
    );
  });

  it('Temporal unreachable: deliveries still answer 200, stay queued through failing relay passes, and flow once a relay reaches Temporal', async function () {
    this.timeout(30_000);
    const shop = await newShop();
    const broken = unreachableClient();
    try {
      await withoutRelay(async () => {
        const ids = [];
        for (let i = 0; i < 3; i++) {
          const res = await deliver(shop, 'products/update', { id: i });
          assert.equal(res.status, 200, res.text);
          ids.push(res.webhookId);
        }
        const failing = new DeliveryDispatcher({ ...harness().deps, temporal: { ...harness().deps.temporal, client: broken } });
        const pass = await failing.dispatchOnce();
        assert.equal(pass.dispatched, 0);
        assert.ok(pass.failed >= 3, `the hand-over failed (${JSON.stringify(pass)})`);
        assert.equal(await undispatched(shop), 3, 'nothing lost: the rows wait in the table');

        const working = new DeliveryDispatcher(harness().deps);
        const next = await working.dispatchOnce();
        assert.ok(next.dispatched >= 3, JSON.stringify(next));
        for (const id of ids) assert.equal((await processed(shop, id)).outcome, 'processed');
      });
    } finally {
      await broken.connection.close().catch(() => undefined);
    }
  });

  it('a relay that crashed after its signal, before its commit: the woken workflow processes the rows once, and a fresh relay finds each already done', async function () {
    this.timeout(30_000);
    const shop = await newShop();
    const { client, taskQueue } = harness();
    await withoutRelay(async () => {
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push((await deliver(shop, 'products/update', { id: i })).webhookId);
      assert.equal(await undispatched(shop), 4);
      // The crashed relay had signalled but its commit never happened: the rows are not stamped handed over.
      const handle = await client.workflow.signalWithStart(commerceShopContract.workflowType, {
        workflowId: commerceShopWorkflowId(shop.connectionId),
        taskQueue,
        args: [{ accountId: shop.accountId, connectionId: shop.connectionId }],
        signal: deliveriesSignal,
        signalArgs: [{ fromSeq: 1, count: 4 }],
      });
      for (const id of ids) await processed(shop, id);
      assert.equal(await undispatched(shop), 0, 'a processed delivery counts as handed over');

      const fresh = new DeliveryDispatcher(harness().deps);
      const pass = await fresh.dispatchOnce();
      assert.equal(pass.claimed, 0, `nothing left to hand over (${JSON.stringify(pass)})`);
      // The signal sent again (as by a relay retrying its pass) wakes a pass that finds each delivery done.
      await handle.signal(deliveriesSignal, { fromSeq: 1, count: 4 });
      await eventually(
        async () => (await handle.fetchHistory()).events?.filter((e) => e.activityTaskCompletedEventAttributes).length ?? 0,
        (passes) => passes >= 2,
        10_000,
        'a second pass',
      );
      assert.equal((await handle.query(progressQuery)).done, 4, 'each delivery processed once');
      assert.equal(await invalidations(shop), 4, 'each delivery handled once');
    });
  });
});

/** The real app (no test routes) with a Temporal client whose calls fail. */
async function startBrokenTemporalApp(broken: Client) {
  const { deps } = harness();
  const server = createApp({ ...deps, temporal: { ...deps.temporal, client: broken } }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
