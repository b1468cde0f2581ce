import assert from 'node:assert/strict';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { harness } from '../../helpers/harness';
import { newAccount, newUser } from '../../helpers/accounts';
import { STANDARD_WEBHOOK_TOPICS } from '../../../src/commerce/connections/webhooks';
import { authorizeShop, connectShop, newShopDomain, openCallback, registerApp, startCommerceWorld, type CommerceWorld } from './fixtures';

describe('commerce connect (OAuth against the simulator)', () => {
  let world: CommerceWorld;
  before(async () => {
    world = await startCommerceWorld();
  });
  after(async () => {
    await world.close();
  });

  it('the callback exchanges the code and stores the token sealed, never in plaintext', async () => {
    const account = await newAccount();
    await registerApp(world, account);
    const { connection } = await connectShop(world, account, newShopDomain(), 'Acme Goods');
    assert.equal(connection.shop_name, 'Acme Goods');
    assert.equal(connection.status, 'active');
    assert.equal(connection.purpose, 'account_default');

    const row = await harness().db('commerce_connections').where({ id: connection.id }).first();
    assert.match(row.admin_token_enc, /^v1:[^:]+:[^:]+:[^:]+$/);
    const token = createTokenCipher(harness().deps.config.COMMERCE_TOKEN_ENCRYPTION_KEY).decrypt(row.admin_token_enc).plaintext;
    assert.match(token, /^cpat_/);
    assert.ok(!JSON.stringify(row).replace(row.admin_token_enc, '').includes(token), 'the token appears only sealed');
    assert.ok(!JSON.stringify(connection).includes(token));
  });

  it('the standard topics are registered at PUBLIC_APP_URL and recorded as active subscriptions', async () => {
    const account = await newAccount();
    await registerApp(world, account);
    const { shopDomain, connection, webhooks } = await connectShop(world, account);
    const endpoint = `${harness().deps.config.PUBLIC_APP_URL}/api/webhooks/commerce`;
    assert.equal(webhooks.endpoint_url, endpoint);
    assert.deepEqual(webhooks.failed, []);
    assert.deepEqual([...webhooks.registered].sort(), [...STANDARD_WEBHOOK_TOPICS].sort());

    const onPlatform = world.sim.webhooks(shopDomain);
    assert.equal(onPlatform.length, 11);
    assert.ok(onPlatform.every((w) => w.address === endpoint));
    const rows = await harness().db('commerce_webhook_subscriptions').where({ connection_id: connection.id });
    assert.equal(rows.length, 14);
    assert.ok(rows.every((r) => r.is_active && r.api_version === '2025-04' && r.endpoint_url === endpoint));
  });
});

describe('commerce connect start', () => {
  let world: CommerceWorld;
  before(async () => {
    world = await startCommerceWorld();
  });
  after(async () => {
    await world.close();
  });

  it('answers the shop authorize URL with the 9 scopes comma-separated, the callback redirect, a signed state and no per-user grant', async () => {
    const account = await newAccount();
    const app = await registerApp(world, account);
    const res = await world.app.call('POST', '/api/commerce/connect', {
      token: account.ownerToken,
      body: { shop_domain: 'acme.commerce.test' },
    });
    assert.equal(res.status, 200);
    const url: string = res.body.authorize_url;
    assert.ok(url.startsWith(`${world.sim.baseUrl}/acme.commerce.test/admin/oauth/authorize?`), url);
    assert.match(
      url,
      /[?&]scope=read_products,write_products,read_orders,read_customers,write_customers,read_content,write_content,read_themes,write_themes(&|$)/,
    );
    const query = new URL(url).searchParams;
    assert.equal(query.get('client_id'), app.clientId);
    assert.equal(query.get('redirect_uri'), `${harness().deps.config.PUBLIC_APP_URL}/api/oauth/commerce/callback`);
    assert.match(query.get('state')!, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.ok(!url.includes('grant_options'), 'offline token: no grant_options[]=per-user');
    const expires = Date.parse(res.body.state_expires_at) - Date.now();
    assert.ok(expires > 9 * 60_000 && expires <= 10 * 60_000, String(expires));
  });

  it('an account without an app registration answers 409 commerce_app_not_registered', async () => {
    const account = await newAccount();
    const res = await world.app.call('POST', '/api/commerce/connect', {
      token: account.ownerToken,
      body: { shop_domain: 'acme.commerce.test' },
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'commerce_app_not_registered');
  });

  it('a shop domain with a scheme, path, port or bad label answers 400; case and spaces are normalised', async () => {
    const account = await newAccount();
    await registerApp(world, account);
    for (const bad of [
      'https://acme.commerce.test',
      'acme.commerce.test/admin',
      'acme.commerce.test:443',
      'acme',
      'ac_me.commerce.test',
      '',
    ]) {
      const res = await world.app.call('POST', '/api/commerce/connect', { token: account.ownerToken, body: { shop_domain: bad } });
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.code, 'validation_failed');
      assert.equal(res.body.errors[0].path, 'body.shop_domain');
    }
    const ok = await world.app.call('POST', '/api/commerce/connect', {
      token: account.ownerToken,
      body: { shop_domain: '  Acme.Commerce.TEST ' },
    });
    assert.equal(ok.status, 200);
    assert.ok(ok.body.authorize_url.includes('/acme.commerce.test/admin/oauth/authorize'));
  });

  it('with COMMERCE_SHOP_DOMAIN_SUFFIX set, a shop outside it answers 400 shop_domain_not_allowed and one under it connects', async () => {
    const guarded = await startCommerceWorld({ COMMERCE_SHOP_DOMAIN_SUFFIX: 'commerce.test' }, world.sim);
    try {
      const account = await newAccount();
      await registerApp(world, account);
      for (const outside of ['attacker.example', 'commerce.test.attacker.example', 'notcommerce.test']) {
        const res = await guarded.app.call('POST', '/api/commerce/connect', { token: account.ownerToken, body: { shop_domain: outside } });
        assert.equal(res.status, 400, outside);
        assert.equal(res.body.code, 'shop_domain_not_allowed');
      }
      const inside = await guarded.app.call('POST', '/api/commerce/connect', {
        token: account.ownerToken,
        body: { shop_domain: 'acme.commerce.test' },
      });
      assert.equal(inside.status, 200, inside.text);
    } finally {
      await guarded.app.close();
    }
  });

  it('a member may not start a connect (403)', async () => {
    const account = await newAccount();
    await registerApp(world, account);
    const member = await newUser(account.accountId, 'member');
    const res = await world.app.call('POST', '/api/commerce/connect', { token: member.token, body: { shop_domain: 'acme.commerce.test' } });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'forbidden_role');
  });

  it('without PUBLIC_APP_URL the connect answers 503 commerce_not_configured', async () => {
    const bare = await startCommerceWorld({ PUBLIC_APP_URL: undefined }, world.sim);
    try {
      const account = await newAccount();
      await registerApp(bare, account);
      const res = await bare.app.call('POST', '/api/commerce/connect', {
        token: account.ownerToken,
        body: { shop_domain: 'acme.commerce.test' },
      });
      assert.equal(res.status, 503);
      assert.equal(res.body.code, 'commerce_not_configured');
    } finally {
      await bare.close();
    }
  });
});

describe('commerce connections on connect and reconnect', () => {
  let world: CommerceWorld;
  before(async () => {
    world = await startCommerceWorld();
  });
  after(async () => {
    await world.close();
  });

  it('the first shop becomes the account default, a second one a project override', async () => {
    const account = await newAccount();
    await registerApp(world, account);
    const first = await connectShop(world, account);
    const second = await connectShop(world, account);
    assert.equal(first.connection.purpose, 'account_default');
    assert.equal(second.connection.purpose, 'project_override');
  });

  it('after the default is disconnected, the next shop connected becomes the default and the old one is demoted', async () => {
    const account = await newAccount();
    await registerApp(world, account);
    const first = await connectShop(world, account);
    await world.app.call('POST', `/api/commerce/connections/${first.connection.id}/disconnect`, { token: account.ownerToken });
    const next = await connectShop(world, account);
    assert.equal(next.connection.purpose, 'account_default');
    const old = await world.app.call('GET', `/api/commerce/connections/${first.connection.id}`, { token: account.ownerToken });
    assert.equal(old.body.purpose, 'project_override');
    const again = await openCallback(await authorizeShop(world, account, first.shopDomain));
    assert.equal(again.body.connection.purpose, 'project_override', 'a reconnect does not take the default back');
  });

  it('reconnecting a disconnected shop keeps its id, clears disconnected_at and reactivates its subscriptions', async () => {
    const account = await newAccount();
    await registerApp(world, account);
    const { shopDomain, connection } = await connectShop(world, account);
    const off = await world.app.call('POST', `/api/commerce/connections/${connection.id}/disconnect`, { token: account.ownerToken });
    assert.equal(off.body.status, 'disconnected');
    assert.ok(off.body.webhook_subscriptions.every((s: { is_active: boolean }) => !s.is_active));

    const again = await openCallback(await authorizeShop(world, account, shopDomain));
    assert.equal(again.status, 200);
    assert.equal(again.body.connection.id, connection.id);
    assert.equal(again.body.connection.status, 'active');
    assert.equal(again.body.connection.disconnected_at, null);
    assert.equal(again.body.connection.purpose, 'account_default');
    assert.ok(again.body.connection.webhook_subscriptions.every((s: { is_active: boolean }) => s.is_active));
    assert.equal(world.sim.webhooks(shopDomain).length, 11);
  });

  it('a shop connected to another account answers 409 shop_connected_to_another_account and stays with its owner', async () => {
    const owner = await newAccount();
    await registerApp(world, owner);
    const { shopDomain, connection } = await connectShop(world, owner);
    const intruder = await newAccount();
    await registerApp(world, intruder);
    const res = await openCallback(await authorizeShop(world, intruder, shopDomain));
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'shop_connected_to_another_account');
    const row = await harness().db('commerce_connections').where({ shop_domain: shopDomain }).first();
    assert.equal(row.account_id, owner.accountId);
    assert.equal(row.id, connection.id);
  });

  it('scopes the shop did not grant are listed as missing_scopes', async () => {
    const account = await newAccount();
    await registerApp(world, account, ['read_orders', 'write_products']);
    const { connection } = await connectShop(world, account);
    assert.deepEqual(connection.scopes, ['read_orders', 'write_products']);
    assert.deepEqual(connection.missing_scopes, [
      'read_customers',
      'write_customers',
      'read_content',
      'write_content',
      'read_themes',
      'write_themes',
    ]);
  });
});
