import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startCommerceSimulator, type CommerceSimulator } from '../../../src/sandbox/commerce';
import { APP, SCOPES, SHOP, authorizeCode, authorizeUrl, exchange } from './fixtures';

function expectedHmac(query: URLSearchParams, secret: string): string {
  const message = [...query]
    .filter(([k]) => k !== 'hmac' && k !== 'signature')
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return createHmac('sha256', secret).update(message).digest('hex');
}

describe('commerce simulator: OAuth', () => {
  let sim: CommerceSimulator;
  beforeEach(async () => {
    sim = await startCommerceSimulator();
    sim.addApp({ ...APP, scopes: SCOPES });
    sim.addShop({ domain: SHOP, name: 'Maple Goods', id: 6100200300 });
  });
  afterEach(() => sim.stop());

  it('the authorize redirect carries code, shop, state, timestamp and a hex HMAC of the sorted query', async () => {
    const res = await fetch(
      authorizeUrl(sim, {
        client_id: APP.clientId,
        scope: SCOPES.join(','),
        redirect_uri: 'https://app.example/api/oauth/commerce/callback',
        state: 'st-42',
      }),
      { redirect: 'manual' },
    );
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get('location')!);
    assert.equal(location.origin + location.pathname, 'https://app.example/api/oauth/commerce/callback');
    const q = location.searchParams;
    assert.match(q.get('code')!, /^[0-9a-f]{32}$/);
    assert.equal(q.get('shop'), SHOP);
    assert.equal(q.get('state'), 'st-42');
    assert.ok(Math.abs(Number(q.get('timestamp')) - Date.now() / 1000) < 5);
    assert.match(q.get('hmac')!, /^[0-9a-f]{64}$/);
    assert.equal(q.get('hmac'), expectedHmac(q, APP.clientSecret));
    assert.notEqual(q.get('hmac'), expectedHmac(q, 'another-secret'));
  });

  it('a code exchanges once for an offline token with the granted scopes', async () => {
    const code = await authorizeCode(sim);
    const first = await exchange(sim, code);
    assert.equal(first.status, 200);
    const body = (await first.json()) as Record<string, unknown>;
    assert.match(String(body.access_token), /^cpat_[0-9a-f]{32}$/);
    assert.equal(body.scope, SCOPES.join(','));
    assert.equal(body.expires_in, undefined, 'an offline token does not expire');
    const again = await exchange(sim, code);
    assert.equal(again.status, 400);
    assert.equal(((await again.json()) as { error: string }).error, 'invalid_request');
  });

  it('the token opens shop.json; a missing or foreign token answers 401', async () => {
    const { access_token: token } = (await (await exchange(sim, await authorizeCode(sim))).json()) as { access_token: string };
    const url = `${sim.baseUrl}/${SHOP}/admin/api/2025-04/shop.json`;
    const ok = await fetch(url, { headers: { 'x-commerce-access-token': token } });
    assert.equal(ok.status, 200);
    const { shop } = (await ok.json()) as { shop: Record<string, unknown> };
    assert.equal(shop.id, 6100200300);
    assert.equal(shop.name, 'Maple Goods');
    assert.equal(shop.myshopify_domain, SHOP);
    assert.equal((await fetch(url)).status, 401);
    sim.addShop({ domain: 'other.mycommerce.test' });
    const foreign = await fetch(`${sim.baseUrl}/other.mycommerce.test/admin/api/2025-04/shop.json`, {
      headers: { 'x-commerce-access-token': token },
    });
    assert.equal(foreign.status, 401);
  });

  it('an unknown client_id answers 400 and issues no code', async () => {
    const res = await fetch(
      authorizeUrl(sim, { client_id: 'nobody', scope: 'read_orders', redirect_uri: 'https://app.example/cb', state: 's' }),
      { redirect: 'manual' },
    );
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('location'), null);
  });

  it('a wrong client secret, or a code from another shop, is refused', async () => {
    const code = await authorizeCode(sim);
    assert.equal((await exchange(sim, code, SHOP, 'wrong-secret')).status, 400);
    sim.addShop({ domain: 'other.mycommerce.test' });
    assert.equal((await exchange(sim, code, 'other.mycommerce.test')).status, 400);
    assert.equal((await exchange(sim, code)).status, 200, 'refused attempts do not burn the code');
  });

  it('the app grants its configured scopes, not the requested ones', async () => {
    sim.addApp({ ...APP, scopes: ['read_orders'] });
    const body = (await (await exchange(sim, await authorizeCode(sim))).json()) as { scope: string };
    assert.equal(body.scope, 'read_orders');
  });

  it('an unknown shop answers 404', async () => {
    const res = await fetch(
      authorizeUrl(
        sim,
        { client_id: APP.clientId, scope: 'read_orders', redirect_uri: 'https://app.example/cb' },
        'nowhere.mycommerce.test',
      ),
      { redirect: 'manual' },
    );
    assert.equal(res.status, 404);
  });
});
