import assert from 'node:assert/strict';
import { callbackHmac } from '../../../src/commerce/oauth/callbackHmac';
import { newState, signState, stateKey } from '../../../src/commerce/oauth/state';
import { harness } from '../../helpers/harness';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import {
  authorizeShop,
  newShopDomain,
  openCallback,
  registerApp,
  startCommerceWorld,
  type CommerceWorld,
  type RegisteredApp,
} from '../connection/fixtures';

/** Re-signs a callback query with the app secret after changing it, as only the platform could. */
function resign(url: URL, secret: string, change: Record<string, string>): URL {
  const next = new URL(url);
  for (const [k, v] of Object.entries(change)) next.searchParams.set(k, v);
  next.searchParams.delete('hmac');
  next.searchParams.set('hmac', callbackHmac(secret, Object.fromEntries(next.searchParams)));
  return next;
}

describe('commerce OAuth callback verification', () => {
  let world: CommerceWorld;
  let account: TestAccount;
  let app: RegisteredApp;
  before(async () => {
    world = await startCommerceWorld();
    account = await newAccount();
    app = await registerApp(world, account);
  });
  after(async () => {
    await world.close();
  });

  const connectionsOf = (accountId: string) => harness().db('commerce_connections').where({ account_id: accountId });

  async function approved(): Promise<{ url: URL; shopDomain: string }> {
    const shopDomain = newShopDomain();
    world.sim.addShop({ domain: shopDomain });
    return { url: await authorizeShop(world, account, shopDomain), shopDomain };
  }

  it('a callback with a tampered parameter answers 401 invalid_hmac and stores nothing', async () => {
    const { url } = await approved();
    url.searchParams.set('timestamp', String(Number(url.searchParams.get('timestamp')) + 1));
    const res = await openCallback(url);
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'invalid_hmac');
    assert.equal((await connectionsOf(account.accountId)).length, 0);
  });

  it('a callback signed with another secret answers 401 invalid_hmac', async () => {
    const { url } = await approved();
    const res = await openCallback(resign(url, 'not-the-app-secret', {}));
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'invalid_hmac');
  });

  it('a tampered state answers 400 invalid_oauth_state, even when re-signed with the app secret', async () => {
    const { url } = await approved();
    const state = url.searchParams.get('state')!;
    const res = await openCallback(resign(url, app.clientSecret, { state: `${state.slice(0, -3)}abc` }));
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_oauth_state');
  });

  it('an expired state answers 400 invalid_oauth_state', async () => {
    const { url, shopDomain } = await approved();
    const old = newState(account.accountId, shopDomain, Date.now() - 11 * 60_000);
    const res = await openCallback(resign(url, app.clientSecret, { state: signState(stateKey(harness().deps.secretHashKey), old) }));
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_oauth_state');
    assert.match(res.body.message, /expired/);
  });

  it('a state issued for another shop answers 400 invalid_oauth_state', async () => {
    const { url } = await approved();
    const other = newShopDomain();
    world.sim.addShop({ domain: other });
    const res = await openCallback(resign(url, app.clientSecret, { shop: other }));
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_oauth_state');
    assert.equal((await connectionsOf(account.accountId)).length, 0);
  });

  it('a callback without code, shop, state or hmac answers 400 validation_failed', async () => {
    const res = await openCallback(new URL(`${world.app.baseUrl}/api/oauth/commerce/callback?shop=a.commerce.test`));
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path).sort(), ['query.code', 'query.hmac', 'query.state']);
  });

  it('a replayed callback (code already used) answers 400 invalid_oauth_code', async () => {
    const { url } = await approved();
    assert.equal((await openCallback(url)).status, 200);
    const replay = await openCallback(url);
    assert.equal(replay.status, 400);
    assert.equal(replay.body.code, 'invalid_oauth_code');
  });

  it('a browser gets a small HTML page naming the shop', async () => {
    const shopDomain = newShopDomain();
    world.sim.addShop({ domain: shopDomain, name: 'Tom & <Jerry>' });
    const res = await openCallback(await authorizeShop(world, account, shopDomain), 'text/html,application/xhtml+xml');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.match(res.text, /Tom &#38; &#60;Jerry&#62; is connected/);
  });
});
