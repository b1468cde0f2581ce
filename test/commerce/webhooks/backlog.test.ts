import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createActivities } from '../../../src/app/activities';
import { DeliveryDispatcher } from '../../../src/commerce/webhooks/dispatcher';
import type { AppDeps } from '../../../src/deps';
import { connectTemporal } from '../../../src/temporal/client';
import { createWorker } from '../../../src/temporal/worker';
import { commerceShopWorkflowId } from '../../../workflows/commerceShop.contract';
import { HISTORY_EVENTS_PER_RUN } from '../../../workflows/outboxDrain.contract';
import { harness } from '../../helpers/harness';
import { startKillableTemporal } from '../../helpers/killableTemporal';
import { startReplacementWorker } from '../../helpers/workerProcess';
import { tempDir } from '../../runtime/child';
import { assertEachOrderOnce, drained, eventually, postOrderBurst, runHistoryLengths, unprocessed } from './backlogKit';
import { deliverOk, newShop, processed, withoutRelay, type TestShop } from './receiverKit';

const BACKLOG = 20_000;
/** A run's history may pass its bound by what one pass adds before the check that ends it. */
const HISTORY_SLACK = 100;

/** Waits until the relay has handed every delivery of the shop over. */
async function handedOver(shop: TestShop): Promise<void> {
  await eventually(
    async () =>
      (await harness().db('commerce_webhook_deliveries').where({ connection_id: shop.connectionId }).whereNull('dispatched_at').first())
        ?.webhook_id,
    (left) => left === undefined,
    60_000,
    'every delivery handed over',
  );
}

/** Starts a worker on `queue`, waits until the shop's deliveries are all processed, and stops it. */
async function drainWithWorker(queue: string, shop: TestShop): Promise<void> {
  const worker = await startReplacementWorker(queue, {});
  try {
    await drained(shop);
  } finally {
    await worker.stop();
  }
}

/** The harness's app dependencies with Temporal calls going to `taskQueue` (where no worker polls until a test starts one). */
const onQueue = (taskQueue: string, temporal: Partial<AppDeps['temporal']> = {}): AppDeps => ({
  ...harness().deps,
  temporal: { ...harness().deps.temporal, taskQueue, ...temporal },
});

const newQueue = () => `backlog-${randomBytes(4).toString('hex')}`;

describe('no accepted delivery is ever stranded: the shop workflow drains its outbox from the table', () => {
  it('20,000 deliveries accepted while the worker is stopped are each processed exactly once when it starts, every run of bounded history', async function () {
    this.timeout(10 * 60_000);
    const shop = await newShop();
    const queue = newQueue();
    await withoutRelay(async () => {
      const relay = new DeliveryDispatcher(onQueue(queue)).start();
      try {
        const orders = await postOrderBurst(shop, BACKLOG);
        await handedOver(shop);
        assert.equal(await unprocessed(shop), BACKLOG, 'nothing is processed while no worker polls');
        await drainWithWorker(queue, shop);
        await assertEachOrderOnce(shop, orders);
        const lengths = await runHistoryLengths(harness().client, shop);
        assert.ok(
          Math.max(...lengths) <= HISTORY_EVENTS_PER_RUN + HISTORY_SLACK,
          `each run's history stays bounded: ${JSON.stringify(lengths)}`,
        );
      } finally {
        await relay.stop();
      }
    });
  });

  it('a Temporal server killed with SIGKILL mid-burst and restarted on its file: every delivery accepted meanwhile is processed exactly once', async function () {
    this.timeout(10 * 60_000);
    const shop = await newShop();
    const queue = newQueue();
    const server = await startKillableTemporal(path.join(await tempDir('wy-temporal-'), 'temporal.db'));
    const client = await connectTemporal(server.address, server.namespace);
    const { config, db, logger } = harness().deps;
    const { worker, connection } = await createWorker({
      address: server.address,
      namespace: server.namespace,
      taskQueue: queue,
      bundle: harness().bundle,
      activities: createActivities({ config, db, logger }),
    });
    const running = worker.run();
    try {
      await withoutRelay(async () => {
        const relay = new DeliveryDispatcher(onQueue(queue, { client, namespace: server.namespace })).start();
        try {
          const orders = await postOrderBurst(shop, BACKLOG, {
            during: async (posted) => {
              await eventually(
                async () => posted(),
                (n) => n >= BACKLOG / 4,
                120_000,
                'a quarter of the burst accepted',
              );
              await server.kill();
              // Deliveries keep being accepted while the server is down; then it comes back on the same file.
              await new Promise((resolve) => setTimeout(resolve, 8_000));
              await server.restart();
            },
          });
          await drained(shop, 120_000);
          await assertEachOrderOnce(shop, orders);
          const lengths = await runHistoryLengths(client, shop);
          assert.ok(Math.max(...lengths) <= HISTORY_EVENTS_PER_RUN + HISTORY_SLACK, `bounded histories: ${JSON.stringify(lengths)}`);
        } finally {
          await relay.stop();
        }
      });
    } finally {
      worker.shutdown();
      await running.catch(() => undefined);
      await connection.close();
      await client.connection.close();
      await server.stop();
    }
  });

  it('a run terminated by hand is replaced when the relay hands its rows over again, and they resume', async function () {
    this.timeout(5 * 60_000);
    const shop = await newShop();
    const queue = newQueue();
    await withoutRelay(async () => {
      const relay = new DeliveryDispatcher(onQueue(queue), { againAfterMs: 1_000, againEveryMs: 500 }).start();
      try {
        const orders = await postOrderBurst(shop, 2_000);
        await handedOver(shop);
        await harness().client.workflow.getHandle(commerceShopWorkflowId(shop.connectionId)).terminate('an operator ended it');
        await drainWithWorker(queue, shop);
        await assertEachOrderOnce(shop, orders);
        const runs = await runHistoryLengths(harness().client, shop);
        assert.ok(runs.length >= 2, `the terminated run and the one that replaced it (${runs.length} runs)`);
      } finally {
        await relay.stop();
      }
    });
  });

  describe('a delivery whose handler keeps throwing', () => {
    const POISON = 'poison@example.test';
    before(async () => {
      // A fault of the data, not of the database: this customer's privacy request can never be logged.
      await harness().db.raw(`
        create or replace function reject_poison_request() returns trigger language plpgsql as $$
        begin
          if new.customer_email = '${POISON}' then raise exception 'this request cannot be logged'; end if;
          return new;
        end $$;
        create trigger reject_poison_request before insert on commerce_compliance_requests
          for each row execute function reject_poison_request();`);
    });
    after(async () => {
      await harness().db.raw(`drop trigger if exists reject_poison_request on commerce_compliance_requests;
        drop function if exists reject_poison_request();`);
    });

    it('is recorded as failed (handler_error) after its retries, and the deliveries before and after it are processed', async function () {
      this.timeout(60_000);
      const shop = await newShop();
      const before = await deliverOk(shop, 'products/update', { id: 1 });
      const poison = await deliverOk(shop, 'customers/redact', { shop_domain: shop.shopDomain, customer: { id: 9, email: POISON } });
      const after = await deliverOk(shop, 'products/update', { id: 2 });
      const record = await processed(shop, poison, 45_000);
      assert.deepEqual([record.outcome, record.error_code], ['failed', 'handler_error']);
      for (const id of [before, after]) assert.equal((await processed(shop, id)).outcome, 'processed');
      const inbox = await harness().db('inbox_items').where({ account_id: shop.accountId, kind: 'commerce_webhook_failed' });
      assert.equal(inbox.length, 1, 'the failure is raised in the inbox');
    });
  });
});
