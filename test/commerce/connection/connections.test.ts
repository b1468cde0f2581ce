import assert from 'node:assert/strict';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { harness } from '../../helpers/harness';
import { newAccount, newUser, type TestAccount } from '../../helpers/accounts';
import { connectShop, registerApp, startCommerceWorld, type CommerceWorld } from './fixtures';

describe('commerce connections', () => {
  let world: CommerceWorld;
  let account: TestAccount;
  let stranger: TestAccount;
  before(async () => {
    world = await startCommerceWorld();
    account = await newAccount();
    stranger = await newAccount();
    await registerApp(world, account);
  });
  after(async () => {
    await world.close();
  });

  const as = (who: TestAccount) => ({ token: who.ownerToken });

  it('the account lists its connections, oldest first, without any token', async () => {
    const a = await connectShop(world, account);
    const b = await connectShop(world, account);
    const res = await world.app.call('GET', '/api/commerce/connections', as(account));
    assert.equal(res.status, 200);
    const ids = res.body.data.map((c: { id: string }) => c.id);
    assert.ok(ids.indexOf(a.connection.id) < ids.indexOf(b.connection.id));
    assert.equal(res.body.total, ids.length);
    assert.deepEqual([res.body.page, res.body.limit], [1, 25]);
    const rows = await harness().db('commerce_connections').where({ account_id: account.accountId });
    for (const row of rows) assert.ok(!res.text.includes(row.admin_token_enc));
    assert.ok(!/token/i.test(Object.keys(res.body.data[0]).join(',')));
  });

  it('one connection answers with its webhook subscriptions', async () => {
    const { connection, shopDomain } = await connectShop(world, account);
    const res = await world.app.call('GET', `/api/commerce/connections/${connection.id}`, as(account));
    assert.equal(res.status, 200);
    assert.equal(res.body.shop_domain, shopDomain);
    assert.equal(res.body.webhook_subscriptions.length, 14);
  });

  it("another account's connection, a missing one and a malformed id answer 404 on every connection route", async () => {
    const { connection } = await connectShop(world, account);
    for (const id of [connection.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      for (const [method, path] of [
        ['GET', ''],
        ['POST', '/disconnect'],
        ['POST', '/verify'],
        ['POST', '/webhooks'],
      ]) {
        const res = await world.app.call(method, `/api/commerce/connections/${id}${path}`, as(id === connection.id ? stranger : account));
        assert.equal(res.status, 404, `${method} ${path} ${id}`);
        assert.equal(res.body.code, 'commerce_connection_not_found');
      }
    }
    assert.equal((await world.app.call('GET', '/api/commerce/connections', as(stranger))).body.total, 0);
    const row = await harness().db('commerce_connections').where({ id: connection.id }).first();
    assert.equal(row.disconnected_at, null, "the stranger's disconnect changed nothing");
  });

  it("disconnect deletes the shop's webhooks, deactivates subscriptions, drops the token; again changes nothing", async () => {
    const { connection, shopDomain } = await connectShop(world, account);
    const res = await world.app.call('POST', `/api/commerce/connections/${connection.id}/disconnect`, as(account));
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'disconnected');
    assert.ok(res.body.disconnected_at);
    assert.deepEqual(world.sim.webhooks(shopDomain), []);
    const row = await harness().db('commerce_connections').where({ id: connection.id }).first();
    assert.equal(row.admin_token_enc, null);
    const active = await harness().db('commerce_webhook_subscriptions').where({ connection_id: connection.id, is_active: true });
    assert.equal(active.length, 0);

    const again = await world.app.call('POST', `/api/commerce/connections/${connection.id}/disconnect`, as(account));
    assert.equal(again.status, 200);
    assert.equal(again.body.disconnected_at, res.body.disconnected_at);
    const verify = await world.app.call('POST', `/api/commerce/connections/${connection.id}/verify`, as(account));
    assert.equal(verify.status, 409);
    assert.equal(verify.body.code, 'commerce_connection_disconnected');
  });

  it('a member may read connections but not disconnect them', async () => {
    const { connection } = await connectShop(world, account);
    const member = await newUser(account.accountId, 'member');
    assert.equal((await world.app.call('GET', `/api/commerce/connections/${connection.id}`, { token: member.token })).status, 200);
    assert.equal(
      (await world.app.call('POST', `/api/commerce/connections/${connection.id}/disconnect`, { token: member.token })).status,
      403,
    );
  });

  it('verify reads the shop live and refreshes its name', async () => {
    const { connection } = await connectShop(world, account);
    await harness().db('commerce_connections').where({ id: connection.id }).update({ shop_name: 'stale' });
    const res = await world.app.call('POST', `/api/commerce/connections/${connection.id}/verify`, as(account));
    assert.equal(res.status, 200);
    assert.equal(res.body.shop_name, connection.shop_name);
  });

  it('verify with a token the shop rejects answers 502 commerce_unauthorized without the token', async () => {
    const { connection } = await connectShop(world, account);
    const revoked = createTokenCipher(harness().deps.config.COMMERCE_TOKEN_ENCRYPTION_KEY).encrypt('cpat_revoked0000');
    await harness().db('commerce_connections').where({ id: connection.id }).update({ admin_token_enc: revoked });
    const res = await world.app.call('POST', `/api/commerce/connections/${connection.id}/verify`, as(account));
    assert.equal(res.status, 502);
    assert.equal(res.body.code, 'commerce_unauthorized');
    assert.equal(res.body.upstreamStatus, 401);
    assert.ok(!res.text.includes('cpat_'));
  });

  it('re-registering after PUBLIC_APP_URL changed moves every webhook to the new URL', async () => {
    const { connection, shopDomain } = await connectShop(world, account);
    const moved = await startCommerceWorld({ PUBLIC_APP_URL: 'https://new-host.example' }, world.sim);
    try {
      const res = await moved.app.call('POST', `/api/commerce/connections/${connection.id}/webhooks`, as(account));
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.webhooks.failed, []);
      assert.equal(res.body.webhooks.endpoint_url, 'https://new-host.example/api/webhooks/commerce');
      const hooks = world.sim.webhooks(shopDomain);
      assert.equal(hooks.length, 11);
      assert.ok(hooks.every((w) => w.address === 'https://new-host.example/api/webhooks/commerce'));
      assert.ok(
        res.body.connection.webhook_subscriptions.every(
          (s: { endpoint_url: string }) => s.endpoint_url === 'https://new-host.example/api/webhooks/commerce',
        ),
      );
    } finally {
      await moved.close();
    }
  });

  it('webhook topics the platform fails during connect are reported, the shop still connects, and a retry completes them', async () => {
    world.sim.injectFault({ path: /\/webhooks\.json$/, kind: '5xx', status: 500, times: 1 });
    const { connection, shopDomain, webhooks } = await connectShop(world, account);
    assert.equal(connection.status, 'active');
    assert.equal(webhooks.failed.length, 11);
    assert.ok(webhooks.failed.every((f: { code: string }) => f.code === 'commerce_unavailable'));
    assert.deepEqual(webhooks.app_configured, ['customers/data_request', 'customers/redact', 'shop/redact']);
    assert.equal(world.sim.webhooks(shopDomain).length, 0);

    const retry = await world.app.call('POST', `/api/commerce/connections/${connection.id}/webhooks`, as(account));
    assert.equal(retry.status, 200);
    assert.deepEqual(retry.body.webhooks.failed, []);
    assert.equal(retry.body.webhooks.registered.length, 14);
    assert.equal(world.sim.webhooks(shopDomain).length, 11);
  });
});
