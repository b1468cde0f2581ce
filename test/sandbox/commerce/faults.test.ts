import assert from 'node:assert/strict';
import { SHOP, installedSimulator, type Installed } from './fixtures';

describe('commerce simulator: fault injection', () => {
  let s: Installed;
  beforeEach(async () => {
    s = await installedSimulator({ timeoutHoldMs: 5_000 });
  });
  afterEach(() => s.sim.stop());

  it('5xx fails the next matching request only, then the path recovers', async () => {
    s.sim.injectFault({ path: 'orders.json', kind: '5xx' });
    assert.equal((await s.admin('/shop.json')).status, 200, 'other paths are untouched');
    assert.equal((await s.admin('/orders.json')).status, 503);
    assert.equal((await s.admin('/orders.json')).status, 200);
  });

  it('malformed answers 200 with a JSON content type and a body that does not parse', async () => {
    s.sim.injectFault({ path: /\/shop\.json$/, kind: 'malformed', times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await s.admin('/shop.json');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /application\/json/);
      const text = await res.text();
      assert.throws(() => JSON.parse(text));
    }
    const recovered = JSON.parse(await (await s.admin('/shop.json')).text()) as { shop: { myshopify_domain: string } };
    assert.equal(recovered.shop.myshopify_domain, SHOP);
  });

  it('timeout holds the request past the client timeout', async () => {
    s.sim.injectFault({ path: 'webhooks.json', kind: 'timeout' });
    const started = Date.now();
    await assert.rejects(s.admin('/webhooks.json', { signal: AbortSignal.timeout(300) }), /timeout|abort/i);
    assert.ok(Date.now() - started >= 290);
    assert.equal((await s.admin('/webhooks.json')).status, 200);
  });

  it('stop() drops held requests at once', async () => {
    s.sim.injectFault({ path: 'shop.json', kind: 'timeout' });
    const held = s.admin('/shop.json').then(
      () => 'answered',
      () => 'dropped',
    );
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await s.sim.stop();
    assert.equal(await held, 'dropped');
    assert.ok(Date.now() - started < 1000);
  });

  it('a held request ends with 504 after the configured hold', async () => {
    s.sim.injectFault({ path: 'shop.json', kind: 'timeout', holdMs: 150 });
    const res = await s.admin('/shop.json');
    assert.equal(res.status, 504);
  });

  it('429 answers with Retry-After', async () => {
    s.sim.injectFault({ path: 'orders.json', kind: '429', retryAfter: 3 });
    const res = await s.admin('/orders.json');
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '3');
  });

  it('faults apply to OAuth paths too, and the request log records each status', async () => {
    s.sim.injectFault({ path: '/admin/oauth/access_token', kind: '5xx', status: 502 });
    const res = await fetch(`${s.sim.baseUrl}/${SHOP}/admin/oauth/access_token`, { method: 'POST' });
    assert.equal(res.status, 502);
    const last = s.sim.requests().at(-1)!;
    assert.deepEqual([last.method, last.path, last.status], ['POST', `/${SHOP}/admin/oauth/access_token`, 502]);
  });
});
