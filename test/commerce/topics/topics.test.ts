import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { deliverAndProcess, newShop, outbox, type TestShop } from '../webhooks/receiverKit';

const db = () => harness().db;

describe('commerce webhook topics', () => {
  it('app/uninstalled marks the connection disconnected and its subscriptions inactive', async () => {
    const shop = await newShop({ subscriptions: ['orders/create', 'app/uninstalled'] });
    const record = await deliverAndProcess(shop, 'app/uninstalled', { id: 1, domain: shop.shopDomain });
    assert.equal(record.outcome, 'processed');
    const connection = await db()('commerce_connections').where({ id: shop.connectionId }).first();
    assert.ok(connection.disconnected_at instanceof Date);
    const subs = await db()('commerce_webhook_subscriptions').where({ connection_id: shop.connectionId });
    assert.deepEqual(
      subs.map((s) => s.is_active),
      [false, false],
    );
  });

  it('an app/uninstalled received before the shop was (re)installed leaves the newer installation connected', async () => {
    const shop = await newShop({ subscriptions: ['orders/create'], installedAt: new Date(Date.now() + 3_600_000) });
    await deliverAndProcess(shop, 'app/uninstalled', { id: 1 });
    const connection = await db()('commerce_connections').where({ id: shop.connectionId }).first();
    assert.equal(connection.disconnected_at, null);
    assert.deepEqual(
      (await db()('commerce_webhook_subscriptions').where({ connection_id: shop.connectionId })).map((s) => s.is_active),
      [true],
    );
  });

  it('products/* and collections/update record a cache-tag invalidation with both tags (no deployed site yet)', async () => {
    const shop = await newShop();
    const topics = ['products/create', 'products/update', 'products/delete', 'collections/update'];
    for (const topic of topics) await deliverAndProcess(shop, topic, { id: 632910392, title: 'Tea' });
    const rows = await db()('commerce_cache_invalidations').where({ account_id: shop.accountId }).orderBy('created_at');
    assert.deepEqual(
      rows.map((r) => r.topic),
      topics,
    );
    for (const r of rows) {
      assert.deepEqual(
        [r.tags, r.target, r.outcome, r.connection_id],
        [['commerce-products', 'commerce-collections'], null, 'no_deployed_sites', shop.connectionId],
      );
    }
  });

  it('the three privacy topics are logged in the privacy-request log', async () => {
    const shop = await newShop();
    const customer = { id: 191167, email: 'john@example.test', phone: '555-625-1199' };
    await deliverAndProcess(shop, 'customers/data_request', {
      shop_id: 954889,
      shop_domain: shop.shopDomain,
      orders_requested: [299938],
      customer,
      data_request: { id: 9999 },
    });
    // Read before the redacts: their fulfilment (started right after each is logged) scrubs the customer from the rows.
    const dataRequest = await db()('commerce_compliance_requests').where({ account_id: shop.accountId }).first();
    assert.deepEqual([dataRequest.customer_id, dataRequest.customer_email], ['191167', 'john@example.test']);
    await deliverAndProcess(shop, 'customers/redact', {
      shop_id: 954889,
      shop_domain: shop.shopDomain,
      customer,
      orders_to_redact: [299938],
    });
    await deliverAndProcess(shop, 'shop/redact', { shop_id: 954889, shop_domain: shop.shopDomain });
    const rows = await db()('commerce_compliance_requests').where({ account_id: shop.accountId }).orderBy('created_at');
    assert.deepEqual(
      rows.map((r) => [r.topic, r.shop_domain, r.connection_id]),
      [
        ['customers/data_request', shop.shopDomain, shop.connectionId],
        ['customers/redact', shop.shopDomain, shop.connectionId],
        ['shop/redact', shop.shopDomain, shop.connectionId],
      ],
    );
    assert.deepEqual(rows[0].raw_payload.orders_requested, [299938]);
    assert.deepEqual(rows[1].raw_payload.orders_to_redact, [299938]);
  });

  describe('subscription topics', () => {
    let shop: TestShop;
    before(async () => {
      shop = await newShop();
    });

    const contract = {
      id: 5201,
      admin_graphql_api_id: 'gid://commerce/SubscriptionContract/5201',
      status: 'active',
      customer_id: 777,
      currency_code: 'EUR',
      billing_policy: { interval: 'month', interval_count: 1 },
      origin_order_id: 42,
      revision_id: 1,
    };
    const attempt = (id: number) => ({
      id,
      subscription_contract_id: 5201,
      order_id: null,
      ready: true,
      error_code: 'card_declined',
      error_message: 'Card was declined',
    });

    it('the four topics are normalised and fire their commerce.subscription.* triggers', async () => {
      await deliverAndProcess(shop, 'subscription_contracts/create', contract);
      await deliverAndProcess(shop, 'subscription_contracts/update', { ...contract, status: 'paused', revision_id: 2 });
      await deliverAndProcess(shop, 'subscription_billing_attempts/success', {
        id: 61,
        subscription_contract_id: 5201,
        order_id: 9001,
        ready: true,
      });
      await deliverAndProcess(shop, 'subscription_billing_attempts/failure', attempt(62));
      const triggers = await outbox(shop.accountId, 'commerce.subscription.');
      assert.deepEqual(
        triggers.map((t) => t.trigger),
        [
          'commerce.subscription.created',
          'commerce.subscription.updated',
          'commerce.subscription.billing_succeeded',
          'commerce.subscription.billing_failed',
        ],
      );
      assert.deepEqual(
        [
          triggers[1].payload.contract_id,
          triggers[1].payload.status,
          triggers[1].payload.billing_interval,
          triggers[1].payload.customer_id,
        ],
        ['5201', 'paused', 'month', '777'],
      );
      assert.deepEqual([triggers[2].payload.billing_attempt_id, triggers[2].payload.order_id], ['61', '9001']);
      assert.deepEqual([triggers[3].payload.error_code, triggers[3].payload.error_message], ['card_declined', 'Card was declined']);
    });

    it('a billing failure raises one urgent inbox item, deduplicated when the contract fails again', async () => {
      await deliverAndProcess(shop, 'subscription_billing_attempts/failure', attempt(63));
      await deliverAndProcess(shop, 'subscription_billing_attempts/failure', attempt(64));
      const items = await db()('inbox_items').where({ account_id: shop.accountId, kind: 'commerce_subscription_billing_failed' });
      assert.equal(items.length, 1);
      assert.equal(items[0].urgency, 'urgent');
      assert.equal(items[0].resolved_at, null);
      assert.deepEqual([items[0].body.contract_id, items[0].body.shop_domain], ['5201', shop.shopDomain]);
      assert.equal(
        (await outbox(shop.accountId, 'commerce.subscription.billing_failed')).length,
        3,
        'each attempt still fires its trigger',
      );
    });

    it('a subscription payload naming no contract is recorded as failed', async () => {
      const record = await deliverAndProcess(shop, 'subscription_contracts/update', { status: 'active' });
      assert.deepEqual([record.outcome, record.error_code], ['failed', 'invalid_subscription_payload']);
    });
  });
});
