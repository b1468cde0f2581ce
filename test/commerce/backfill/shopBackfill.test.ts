import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { harness } from '../../helpers/harness';
import { contactByEmail, deliverAndProcess, orderLog, outbox, type TestShop } from '../webhooks/receiverKit';
import {
  ago,
  HOUR,
  loggedCount,
  newConnectedShop,
  orderAt,
  orderListings,
  retireConnectedShops,
  runShopBackfill,
  startBackfillWorker,
  startCommerceWorld,
  type BackfillWorker,
  type CommerceWorld,
} from './backfillKit';

describe('commerce order backfill of one shop', () => {
  let world: CommerceWorld;
  let worker: BackfillWorker;
  const taskQueue = `backfill-shop-${randomUUID()}`;
  before(async () => {
    world = await startCommerceWorld();
    worker = await startBackfillWorker(world, taskQueue);
  });
  after(async () => {
    await retireConnectedShops();
    await worker?.stop();
    await world?.close();
  });

  it('a shop with no logged order is backfilled from 48 hours ago, each order once, with topic orders/updated and no creation trigger', async () => {
    const shop = await newConnectedShop(world);
    const email = `buyer-${randomUUID()}@example.test`;
    const [tooOld, inWindow, recent] = world.sim.addOrders(shop.shopDomain, [
      orderAt(ago(50 * HOUR), { email }),
      orderAt(ago(47 * HOUR), { email }),
      orderAt(ago(2 * HOUR), { email }),
    ]);
    const [guest] = world.sim.addOrders(shop.shopDomain, [orderAt(ago(HOUR), { email: null, customer: null })]);

    const startedAt = Date.now();
    const { result } = await runShopBackfill(taskQueue, shop);
    assert.equal(result.status, 'done');
    assert.deepEqual([result.fetched, result.ingested, result.unchanged, result.invalid], [3, 3, 0, 0]);

    const [listing] = orderListings(world, shop.shopDomain);
    const windowStart = Date.parse(listing.get('updated_at_min')!);
    assert.ok(Math.abs(windowStart - (startedAt - 48 * HOUR)) < 60_000, `window starts 48 h back, not at ${listing.get('updated_at_min')}`);
    assert.equal(listing.get('status'), 'any');
    assert.equal(listing.get('order'), 'updated_at asc');

    const rows = await harness().db('commerce_orders_log').where({ connection_id: shop.connectionId }).orderBy('order_updated_at');
    assert.deepEqual(
      rows.map((r) => r.order_id),
      [inWindow.id, recent.id, guest.id].map(String),
      'the order updated 50 h ago is outside the window',
    );
    assert.ok(!rows.some((r) => r.order_id === String(tooOld.id)));
    assert.ok(rows.every((r) => r.last_topic === 'orders/updated'));
    const guestRow = rows.find((r) => r.order_id === String(guest.id));
    assert.deepEqual([guestRow.customer_email, guestRow.crm_contact_id], [null, null], 'a guest order is logged without a contact');
    const contact = await contactByEmail(shop.accountId, email);
    assert.ok(rows.filter((r) => r.order_id !== String(guest.id)).every((r) => r.crm_contact_id === contact.id));
    assert.deepEqual(
      [contact.commerce_order_count, Number(contact.commerce_total_spent_cents)],
      [2, [inWindow, recent].reduce((sum, o) => sum + Math.round(Number(o.total_price) * 100), 0)],
      'rollups count the two orders in the window',
    );

    const triggers = (await outbox(shop.accountId)).map((t) => t.trigger);
    assert.deepEqual(triggers, ['commerce.order.updated', 'commerce.order.updated', 'commerce.order.updated']);
  });

  it('a later run starts at the newest logged order: older unlogged orders are not fetched, a second run ingests nothing new', async () => {
    const shop = await newConnectedShop(world);
    const [first, newest] = world.sim.addOrders(shop.shopDomain, [orderAt(ago(5 * HOUR)), orderAt(ago(HOUR))]);
    await runShopBackfill(taskQueue, shop);
    const [older, newer] = world.sim.addOrders(shop.shopDomain, [orderAt(ago(3 * HOUR)), orderAt(ago(60_000))]);

    const { result: second } = await runShopBackfill(taskQueue, shop);
    const listing = orderListings(world, shop.shopDomain).at(-1)!;
    assert.equal(
      listing.get('updated_at_min'),
      new Date(newest.updated_at).toISOString(),
      'the window starts at the newest logged updated_at',
    );
    assert.deepEqual([second.fetched, second.ingested, second.unchanged], [2, 1, 1], 'the newest logged order comes back and is skipped');
    const ids = (await harness().db('commerce_orders_log').where({ connection_id: shop.connectionId })).map((r) => r.order_id).sort();
    assert.deepEqual(ids, [first.id, newest.id, newer.id].map(String).sort());
    assert.ok(!ids.includes(String(older.id)), 'an order updated before the newest logged one is outside the window');

    const outboxBefore = (await outbox(shop.accountId)).length;
    const { result: third } = await runShopBackfill(taskQueue, shop);
    assert.deepEqual([third.status, third.ingested, third.unchanged], ['done', 0, 1]);
    assert.equal(await loggedCount(shop.connectionId), 3);
    assert.equal((await outbox(shop.accountId)).length, outboxBefore, 'a run that finds nothing new fires nothing');
    assert.ok((await outbox(shop.accountId)).every((t) => t.trigger !== 'commerce.order.created'));
  });

  it('an order stamped in the future moves the window no further than its receipt: a real order updated since is still fetched', async () => {
    const shop = await newConnectedShop(world);
    const app = await harness().db('app_registrations').where({ account_id: shop.accountId, provider: 'commerce' }).first();
    const receiving: TestShop = { ...shop, clientSecret: app.client_secret };
    const tomorrow = new Date(Math.floor((Date.now() + 24 * HOUR) / 1000) * 1000).toISOString();
    const [future] = world.sim.addOrders(shop.shopDomain, [orderAt(tomorrow)]);
    const record = await deliverAndProcess(receiving, 'orders/create', future);
    assert.equal(record.outcome, 'processed');
    const receivedAt: Date = (record as unknown as { received_at: Date }).received_at;
    const [logged] = await orderLog(receiving, future.id);
    assert.ok(
      logged.order_updated_at <= receivedAt,
      `the order's version ${logged.order_updated_at.toISOString()} is not after its receipt`,
    );
    assert.ok(logged.order_created_at <= receivedAt, 'nor is its creation');

    // A real order, updated after that delivery arrived (and long before the future stamp), on the platform only.
    const between = Math.ceil(receivedAt.getTime() / 1000) * 1000 + 1000;
    while (Date.now() <= between) await new Promise((resolve) => setTimeout(resolve, 100));
    const [real] = world.sim.addOrders(shop.shopDomain, [orderAt(new Date(between).toISOString())]);

    const { result } = await runShopBackfill(taskQueue, shop);
    const listing = orderListings(world, shop.shopDomain).at(-1)!;
    assert.ok(
      Date.parse(listing.get('updated_at_min')!) <= receivedAt.getTime(),
      `the window starts at ${listing.get('updated_at_min')}, not after the receipt ${receivedAt.toISOString()}`,
    );
    assert.equal((await orderLog(receiving, real.id)).length, 1, 'the real order is fetched and logged');
    assert.deepEqual(
      [result.fetched, result.ingested, result.unchanged],
      [2, 1, 1],
      'the future order comes back as the version already logged',
    );
    const [again] = await orderLog(receiving, future.id);
    assert.equal(again.order_updated_at.getTime(), logged.order_updated_at.getTime(), 'fetching it again keeps its version');
    assert.deepEqual(
      (await outbox(shop.accountId)).map((t) => `${t.trigger} ${t.payload.order_id}`),
      [`commerce.order.created ${future.id}`, `commerce.order.updated ${real.id}`],
    );

    await runShopBackfill(taskQueue, shop);
    const next = orderListings(world, shop.shopDomain).at(-1)!;
    assert.equal(next.get('updated_at_min'), new Date(between).toISOString(), 'the next window starts at the newest real order');
  });

  it('a listed order without a currency is counted invalid and logs nothing; the rest of its page is ingested', async () => {
    const shop = await newConnectedShop(world);
    const [good, bad, other] = world.sim.addOrders(shop.shopDomain, [
      orderAt(ago(3 * HOUR)),
      orderAt(ago(2 * HOUR), { currency: undefined }),
      orderAt(ago(HOUR)),
    ]);
    const { result } = await runShopBackfill(taskQueue, shop);
    assert.deepEqual([result.status, result.fetched, result.ingested, result.invalid], ['done', 3, 2, 1]);
    const ids = (await harness().db('commerce_orders_log').where({ connection_id: shop.connectionId })).map((r) => r.order_id).sort();
    assert.deepEqual(ids, [good.id, other.id].map(String).sort());
    assert.ok(!ids.includes(String(bad.id)));
  });

  it('pages through the listing and continues as new every pagesPerRun pages, carrying the cursor', async () => {
    const shop = await newConnectedShop(world);
    const orders = world.sim.addOrders(shop.shopDomain, 10);
    const { handle, result } = await runShopBackfill(taskQueue, shop, { pageSize: 3, pagesPerRun: 2 });
    assert.deepEqual([result.status, result.pages, result.fetched, result.ingested, result.runs], ['done', 4, 10, 10, 2]);
    assert.equal(await loggedCount(shop.connectionId), 10);
    const logged = (await harness().db('commerce_orders_log').where({ connection_id: shop.connectionId })).map((r) => r.order_id).sort();
    assert.deepEqual(logged, orders.map((o) => String(o.id)).sort());

    const listings = orderListings(world, shop.shopDomain);
    assert.equal(listings.length, 4);
    assert.ok(listings[0].has('updated_at_min') && !listings[0].has('page_info'));
    assert.ok(listings.slice(1).every((q) => q.has('page_info') && !q.has('updated_at_min') && q.get('limit') === '3'));

    const { client } = harness();
    const firstRun = client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId);
    const history = await firstRun.fetchHistory();
    assert.ok(history.events!.at(-1)!.workflowExecutionContinuedAsNewEventAttributes, 'the first run continued as new');
    const latest = await client.workflow.getHandle(handle.workflowId).describe();
    assert.notEqual(latest.runId, handle.firstExecutionRunId);

    // Determinism guard: both runs replay with the current bundle.
    const histories = [
      { workflowId: handle.workflowId, history },
      { workflowId: handle.workflowId, history: await client.workflow.getHandle(handle.workflowId, latest.runId).fetchHistory() },
    ];
    for await (const replay of Worker.runReplayHistories({ workflowBundle: harness().bundle }, histories)) {
      assert.equal(replay.error, undefined, `replay diverged: ${String(replay.error)}`);
    }
  });
});
