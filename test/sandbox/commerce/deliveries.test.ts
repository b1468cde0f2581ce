import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP, SHOP, installedSimulator, type Installed } from './fixtures';
import { startReceiver, type Receiver } from './receiver';

function verifies(raw: Buffer, header: string | string[] | undefined, secret: string): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('base64'));
  const given = Buffer.from(String(header));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

// Non-ASCII text and escaped slashes: JSON.parse + JSON.stringify gives different bytes, so only the raw body verifies.
const RAW_PAYLOAD =
  '{"id":"5100000000123","title":"Café — naïve crème brûlée ☕","handle":"https:\\/\\/maple-goods.example\\/products\\/cafe"}';

describe('commerce simulator: webhook deliveries', () => {
  let s: Installed;
  let receiver: Receiver;
  beforeEach(async () => {
    s = await installedSimulator({ retrySchedule: [10, 10, 10], deliveryTimeoutMs: 300 });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await s.sim.stop();
    await receiver.close();
  });

  const subscribe = (topic: string) =>
    s.admin('/webhooks.json', { method: 'POST', body: JSON.stringify({ webhook: { topic, address: receiver.url, format: 'json' } }) });

  it('posts to the subscription with the X-Commerce headers and a base64 HMAC of the exact bytes', async () => {
    await subscribe('products/update');
    const result = await s.sim.deliver(SHOP, 'products/update', RAW_PAYLOAD);
    assert.equal(result.delivered, true);
    assert.equal(result.attempts.length, 1);
    assert.equal(result.attempts[0].status, 200);
    const [got] = receiver.received;
    assert.equal(got.raw.toString('utf8'), RAW_PAYLOAD);
    assert.equal(got.headers['x-commerce-topic'], 'products/update');
    assert.equal(got.headers['x-commerce-shop-domain'], SHOP);
    assert.equal(got.headers['x-commerce-api-version'], '2025-04');
    assert.equal(got.headers['x-commerce-webhook-id'], result.webhookId);
    assert.match(String(got.headers['x-commerce-hmac-sha256']), /^[A-Za-z0-9+/]+=*$/);
    assert.ok(verifies(got.raw, got.headers['x-commerce-hmac-sha256'], APP.clientSecret));
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(got.raw.toString('utf8'))));
    assert.ok(!verifies(reserialised, got.headers['x-commerce-hmac-sha256'], APP.clientSecret), 'a re-serialised body must not verify');
  });

  it('retries a 500 and succeeds with the same webhook id', async () => {
    await subscribe('orders/create');
    const [order] = s.sim.addOrders(SHOP, 1);
    receiver.script = [500, 503];
    const result = await s.sim.deliver(SHOP, 'orders/create', order);
    assert.deepEqual(
      result.attempts.map((a) => a.status),
      [500, 503, 200],
    );
    assert.equal(result.delivered, true);
    const ids = receiver.received.map((r) => r.headers['x-commerce-webhook-id']);
    assert.deepEqual(ids, [result.webhookId, result.webhookId, result.webhookId]);
    assert.ok(receiver.received.every((r) => r.raw.equals(receiver.received[0].raw)));
    assert.equal(JSON.parse(receiver.received[0].raw.toString('utf8')).id, order.id);
  });

  it('gives up after the schedule when every attempt fails or times out', async () => {
    await subscribe('orders/updated');
    receiver.script = [401, 'hang', 500, 500];
    const result = await s.sim.deliver(SHOP, 'orders/updated', { id: '1' });
    assert.equal(result.delivered, false);
    assert.deepEqual(
      result.attempts.map((a) => a.status),
      [401, 0, 500, 500],
    );
    assert.equal(result.attempts[1].error, 'timeout');
  });

  it('a wrong secret signs a body the receiver cannot verify; a replay keeps the webhook id', async () => {
    await subscribe('orders/create');
    await s.sim.deliver(SHOP, 'orders/create', { id: '7' }, { clientSecret: 'not-the-secret', webhookId: 'wh-fixed-1' });
    await s.sim.deliver(SHOP, 'orders/create', { id: '7' }, { webhookId: 'wh-fixed-1' });
    const [bad, good] = receiver.received;
    assert.ok(!verifies(bad.raw, bad.headers['x-commerce-hmac-sha256'], APP.clientSecret));
    assert.ok(verifies(good.raw, good.headers['x-commerce-hmac-sha256'], APP.clientSecret));
    assert.deepEqual([bad.headers['x-commerce-webhook-id'], good.headers['x-commerce-webhook-id']], ['wh-fixed-1', 'wh-fixed-1']);
  });

  it('a topic without a subscription goes to options.address, or fails loudly without one', async () => {
    const result = await s.sim.deliver(SHOP, 'customers/redact', { shop_domain: SHOP, customer: { id: '1' } }, { address: receiver.url });
    assert.equal(result.delivered, true);
    assert.equal(receiver.received[0].headers['x-commerce-topic'], 'customers/redact');
    await assert.rejects(s.sim.deliver(SHOP, 'shop/redact', {}), /no shop\/redact subscription/);
  });

  it('catalog payloads have the platform shapes', async () => {
    await subscribe('products/delete');
    await subscribe('collections/update');
    const product = s.sim.catalog.addProduct(SHOP, { title: 'Linen Apron', price: '32.00' });
    assert.deepEqual(s.sim.catalog.payload(SHOP, 'products/delete', product.id), { id: product.id });
    const [collection] = s.sim.catalog.collections(SHOP);
    const updated = s.sim.catalog.updateCollection(SHOP, collection.id, { title: 'Spring picks' });
    const payload = s.sim.catalog.payload(SHOP, 'collections/update', collection.id) as { title: string; handle: string };
    assert.equal(payload.title, 'Spring picks');
    assert.equal(updated.title, 'Spring picks');
    const result = await s.sim.deliver(SHOP, 'collections/update', payload);
    assert.equal(result.delivered, true);
    assert.equal(s.sim.deliveries().length, 1);
  });

  it('uninstall delivers app/uninstalled to its subscription', async () => {
    await subscribe('app/uninstalled');
    const result = await s.sim.uninstall(SHOP);
    assert.equal(result?.delivered, true);
    const [got] = receiver.received;
    assert.equal(got.headers['x-commerce-topic'], 'app/uninstalled');
    assert.equal(JSON.parse(got.raw.toString('utf8')).myshopify_domain, SHOP);
    assert.ok(verifies(got.raw, got.headers['x-commerce-hmac-sha256'], APP.clientSecret));
  });

  it('stop() ends pending retries at once', async () => {
    await subscribe('orders/create');
    receiver.script = [500];
    const pending = s.sim.deliver(SHOP, 'orders/create', { id: '9' }, { retrySchedule: [60_000] });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await s.sim.stop();
    const result = await pending;
    assert.equal(result.delivered, false);
    assert.deepEqual(
      result.attempts.map((a) => a.status),
      [500],
    );
    assert.ok(Date.now() - started < 1000);
  });
});
