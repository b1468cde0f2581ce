import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../../../src/http/errors';
import { createCommerceClient, type CommerceClient, type ShopAccess } from '../../../src/clients/commerce';
import { startCommerceSimulator, type CommerceSimulator } from '../../../src/sandbox/commerce';

/** Installs an app on a fresh simulated shop through the real authorize + exchange, as the callback does. */
async function install(sim: CommerceSimulator, client: CommerceClient): Promise<ShopAccess> {
  const app = { clientId: `cid_${randomBytes(4).toString('hex')}`, clientSecret: `csec_${randomBytes(8).toString('hex')}` };
  const shopDomain = `shop-${randomBytes(4).toString('hex')}.commerce.test`;
  sim.addApp(app);
  sim.addShop({ domain: shopDomain, name: 'Client Test Shop' });
  const url = `${sim.baseUrl}/${shopDomain}/admin/oauth/authorize?client_id=${app.clientId}&scope=read_orders,write_products&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&state=s`;
  const res = await fetch(url, { redirect: 'manual' });
  await res.arrayBuffer();
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  const grant = await client.exchangeCode(shopDomain, { ...app, code });
  assert.equal(grant.scope, 'read_orders,write_products');
  return { shopDomain, accessToken: grant.accessToken };
}

async function rejects(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ApiError, `expected an ApiError, got ${err}`);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('commerce platform client (against the simulator)', () => {
  let sim: CommerceSimulator;
  let client: CommerceClient;
  let shop: ShopAccess;
  before(async () => {
    sim = await startCommerceSimulator();
    client = createCommerceClient({ COMMERCE_SHOP_URL_TEMPLATE: sim.shopUrlTemplate }, { timeoutMs: 400, maxRetryWaitMs: 2000 });
    shop = await install(sim, client);
  });
  afterEach(() => sim.clearFaults());
  after(async () => {
    await sim.stop();
  });

  it('reads the shop with the token in X-Commerce-Access-Token', async () => {
    const info = await client.getShop(shop);
    assert.equal(info.name, 'Client Test Shop');
    assert.equal(info.domain, shop.shopDomain);
    assert.match(info.id, /^\d+$/);
  });

  it('reads the call-limit header of each answer', async () => {
    await client.getShop(shop);
    const limit = client.callLimit(shop.shopDomain);
    assert.ok(limit && limit.limit === 40 && limit.used >= 1, JSON.stringify(limit));
  });

  it('lists every order exactly once by following the Link header cursor', async () => {
    const created = sim.addOrders(shop.shopDomain, 7);
    const seen: string[] = [];
    let pageInfo: string | undefined;
    let pages = 0;
    do {
      const page = await client.listOrders(shop, pageInfo ? { pageInfo, limit: 3 } : { limit: 3 });
      seen.push(...page.orders.map((o) => String(o.id)));
      pageInfo = page.nextPageInfo ?? undefined;
      pages += 1;
    } while (pageInfo);
    assert.equal(pages, 3);
    assert.deepEqual([...seen].sort(), created.map((o) => String(o.id)).sort());
    const cursorCalls = sim.requests().filter((r) => r.path.endsWith('/orders.json') && r.query.includes('page_info='));
    assert.ok(
      cursorCalls.length === 2 && cursorCalls.every((r) => !/status=|updated_at_min=/.test(r.query)),
      'a cursor page sends no other filter',
    );
  });

  it('filters orders by updated_at_min on the first page', async () => {
    const orders = sim.addOrders(shop.shopDomain, 2);
    const changed = sim.updateOrder(shop.shopDomain, String(orders[0].id), { note: 'changed' });
    const page = await client.listOrders(shop, { updatedAtMin: new Date(Date.parse(changed.updated_at)), limit: 250 });
    assert.ok(page.orders.some((o) => String(o.id) === String(changed.id)));
    assert.ok(page.orders.every((o) => Date.parse(String(o.updated_at)) >= Date.parse(changed.updated_at)));
  });

  it('creates, lists and deletes webhooks', async () => {
    const hook = await client.createWebhook(shop, { topic: 'orders/create', address: 'http://127.0.0.1:9/api/webhooks/commerce' });
    assert.equal(hook.topic, 'orders/create');
    assert.ok((await client.listWebhooks(shop)).some((w) => w.id === hook.id));
    await client.deleteWebhook(shop, hook.id);
    assert.ok(!(await client.listWebhooks(shop)).some((w) => w.id === hook.id));
  });

  it('a 429 is retried after its Retry-After and then succeeds', async () => {
    sim.injectFault({ path: '/shop.json', kind: '429', retryAfter: 0.3, times: 1 });
    const started = Date.now();
    const info = await client.getShop(shop);
    assert.equal(info.name, 'Client Test Shop');
    assert.ok(Date.now() - started >= 280, 'waited for Retry-After');
  });

  it('a 429 that outlasts the bounded retries answers commerce_rate_limited with retry_after_seconds', async () => {
    sim.injectFault({ path: '/shop.json', kind: '429', retryAfter: 0.2, times: 5 });
    const err = await rejects(client.getShop(shop));
    assert.equal(err.status, 429);
    assert.equal(err.code, 'commerce_rate_limited');
    assert.equal(err.extra.retryAfterSeconds, 1);
  });

  it('a Retry-After longer than the client waits is not slept on', async () => {
    sim.injectFault({ path: '/shop.json', kind: '429', retryAfter: 30, times: 1 });
    const started = Date.now();
    const err = await rejects(client.getShop(shop));
    assert.equal(err.code, 'commerce_rate_limited');
    assert.equal(err.extra.retryAfterSeconds, 30);
    assert.ok(Date.now() - started < 1000);
  });

  it('a platform 5xx answers 502 commerce_unavailable with upstreamStatus', async () => {
    sim.injectFault({ path: '/orders.json', kind: '5xx', status: 503 });
    const err = await rejects(client.listOrders(shop));
    assert.equal(err.status, 502);
    assert.equal(err.code, 'commerce_unavailable');
    assert.equal(err.extra.upstreamStatus, 503);
  });

  it('a platform that does not answer in time answers 503 commerce_unavailable', async () => {
    sim.injectFault({ path: '/shop.json', kind: 'timeout', holdMs: 1500 });
    const err = await rejects(client.getShop(shop));
    assert.equal(err.status, 503);
    assert.equal(err.code, 'commerce_unavailable');
    assert.equal(err.extra.details?.reason, 'timeout');
  });

  it('a malformed body answers 502 commerce_unavailable', async () => {
    sim.injectFault({ path: '/orders.json', kind: 'malformed' });
    const err = await rejects(client.listOrders(shop));
    assert.equal(err.status, 502);
    assert.equal(err.code, 'commerce_unavailable');
    assert.equal(err.extra.details?.reason, 'malformed_response');
  });

  it('a rejected token answers commerce_unauthorized, and no error carries the token', async () => {
    const wrong = { shopDomain: shop.shopDomain, accessToken: `cpat_${randomBytes(16).toString('hex')}` };
    const err = await rejects(client.getShop(wrong));
    assert.equal(err.code, 'commerce_unauthorized');
    assert.equal(err.extra.upstreamStatus, 401);
    assert.ok(!JSON.stringify({ message: err.message, extra: err.extra }).includes(wrong.accessToken));
  });

  it('a refused code exchange answers commerce_request_rejected without echoing the client secret', async () => {
    const err = await rejects(client.exchangeCode(shop.shopDomain, { clientId: 'nope', clientSecret: 'super-secret-value', code: 'x' }));
    assert.equal(err.code, 'commerce_request_rejected');
    assert.equal(err.extra.upstreamStatus, 400);
    assert.ok(!err.message.includes('super-secret-value'));
  });

  it('an unreachable platform answers 503 commerce_unavailable', async () => {
    const dead = createCommerceClient({ COMMERCE_SHOP_URL_TEMPLATE: 'http://127.0.0.1:9/{shop}' });
    const err = await rejects(dead.getShop(shop));
    assert.equal(err.status, 503);
    assert.equal(err.extra.details?.reason, 'network');
  });
});
