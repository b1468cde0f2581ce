import assert from 'node:assert/strict';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import {
  ALL_SCOPES,
  addClient,
  addSite,
  authorize,
  openCallback,
  registerClient,
  startSiteWorld,
  type SiteWorld,
} from '../connections/fixtures';
import { OPS, newTenant, platformCallsSince, query, type Tenant, useTenantWorld } from '../operations/fixtures';

describe('doc2 Errors', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });

  const get = (tenant: Tenant, action: string, params: Record<string, string> = {}) =>
    world.app.call('GET', `${OPS}${query({ action, site_id: tenant.siteId, ...params })}`, { token: tenant.account.agentKey });
  const post = (tenant: Tenant, body: Record<string, unknown>) =>
    world.app.call('POST', OPS, { token: tenant.account.agentKey, body: { site_id: tenant.siteId, ...body } });

  it('"errors raised by the service\'s own gates leave upstreamStatus undefined"', async () => {
    const narrow = await newTenant(world, { scopes: ['sites:read'] });
    const refusals = [
      await post(t, { action: 'cms_collection_list' }),
      await get(narrow, 'cms_collection_list'),
      await post(t, { action: 'cms_item_delete', collection_id: t.collectionId, item_id: t.itemIds[0] }),
      await get(t, 'token_authorized_by'),
      await post(t, { action: 'page_dom_update', page_id: t.pageId, localeId: 'fr', nodes: [{ nodeId: 'n', text: 'x' }] }),
      await get(t, 'cms_collection_list', { site_id: 'site_not_ours' }),
      await get(t, 'site_nuke'),
    ];
    assert.deepEqual(
      refusals.map((r) => r.body.code),
      [
        'wrong_verb',
        'missing_scopes',
        'confirm_required',
        'oauth_required',
        'secondary_locale_required',
        'site_not_found',
        'unknown_action',
      ],
    );
    for (const res of refusals) {
      assert.ok(res.status >= 400 && res.status < 500 && typeof res.body.code === 'string', res.text);
      assert.equal(res.body.status, res.status);
      assert.ok(!('upstreamStatus' in res.body), `${res.body.code} carries no upstreamStatus`);
    }
  });

  it('401 platform_auth: the platform rejected the stored token; upstreamStatus 401', async () => {
    const account = await newAccount();
    const site = addSite(world);
    const client = addClient(world, [site.id]);
    await registerClient(world, account, client);
    const made = await openCallback(await authorize(world, account, { intent: 'site_account_connect' }));
    assert.equal(made.status, 200, made.text);
    const row = await harness().db('site_platform_connections').where({ id: made.body.connection.id }).first();
    const token = createTokenCipher(world.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY).decrypt(row.access_token_enc).plaintext;
    const revoked = await fetch(`${world.sim.baseUrl}/oauth/revoke_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret, access_token: token }),
    });
    assert.equal(revoked.status, 200);
    const res = await world.app.call('GET', `${OPS}${query({ action: 'site_get', site_id: site.id })}`, { token: account.agentKey });
    assert.deepEqual([res.status, res.body.code, res.body.upstreamStatus], [401, 'platform_auth', 401]);
    assert.ok(!res.text.includes(token));
  });

  it('402 not_enterprise_plan_site carries upstreamStatus, and enterpriseOnly is advisory: the request is sent', async () => {
    for (const action of ['activity_log_list', 'redirect_list', 'llms_txt_get']) {
      const mark = world.sim.requests().length;
      const res = await get(t, action);
      assert.deepEqual([action, res.status, res.body.code, res.body.upstreamStatus], [action, 402, 'not_enterprise_plan_site', 402]);
      assert.equal(platformCallsSince(world, mark).length, 1, `${action} reached the platform once`);
    }
  });

  it('409 coded conflicts from the platform: ecommerce_not_enabled, forms_require_republish and conflict, with upstreamStatus 409', async () => {
    const ecommerce = await get(t, 'product_list');
    assert.deepEqual([ecommerce.status, ecommerce.body.code, ecommerce.body.upstreamStatus], [409, 'ecommerce_not_enabled', 409]);
    const forms = await get(t, 'form_list');
    assert.deepEqual([forms.status, forms.body.code, forms.body.upstreamStatus], [409, 'forms_require_republish', 409]);
    const item = { action: 'cms_item_create', collection_id: t.collectionId, fieldData: { name: 'Twin', slug: `twin-${Date.now()}` } };
    assert.equal((await post(t, item)).status, 200);
    const twin = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: { site_id: t.siteId, ...item },
      headers: { 'idempotency-key': `twin-${Date.now()}` },
    });
    assert.deepEqual([twin.status, twin.body.code, twin.body.upstreamStatus], [409, 'conflict', 409]);
  });

  it('412 missing_scopes: "site_activity:read may be absent on older grants", and the activity log is then refused before the platform', async () => {
    const older = await newTenant(world, { scopes: ALL_SCOPES.filter((s) => s !== 'site_activity:read') });
    const mark = world.sim.requests().length;
    const res = await get(older, 'activity_log_list');
    assert.deepEqual(
      [res.status, res.body.code, res.body.missing_scopes, res.body.upstreamStatus],
      [412, 'missing_scopes', ['site_activity:read'], undefined],
    );
    assert.deepEqual(platformCallsSince(world, mark), []);
  });

  it('422 platform_validation: the platform refused the payload; upstreamStatus is its 400', async () => {
    const res = await post(t, { action: 'page_metadata_update', page_id: t.pageId, localeId: 'no-such-locale', title: 'x' });
    assert.deepEqual([res.status, res.body.code, res.body.upstreamStatus], [422, 'platform_validation', 400]);
    assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0);
  });

  it('404 collection_not_found and similar: the target is not on the bound site, with upstreamStatus 404', async () => {
    const res = await get(t, 'cms_item_get', { collection_id: t.collectionId, item_id: '0'.repeat(24) });
    assert.deepEqual([res.status, res.body.code, res.body.upstreamStatus], [404, 'item_not_found', 404]);
  });

  it('504 platform_timeout: no answer inside the request timeout is never retried and carries no upstreamStatus', async () => {
    const fast = await startSiteWorld(
      { SITE_PLATFORM_TIMEOUT_MS: 300, SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: world.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY },
      { sim: world.sim },
    );
    try {
      world.sim.injectFault({ kind: 'timeout', path: `/v2/sites/${t.siteId}/collections` });
      const mark = world.sim.requests().length;
      const res = await fast.app.call('GET', `${OPS}${query({ action: 'cms_collection_list', site_id: t.siteId })}`, {
        token: t.account.agentKey,
      });
      assert.deepEqual([res.status, res.body.code, res.body.upstreamStatus], [504, 'platform_timeout', undefined]);
      assert.deepEqual(platformCallsSince(world, mark), [`GET /v2/sites/${t.siteId}/collections`], 'sent once, not retried');
    } finally {
      world.sim.clearFaults();
      await fast.close();
    }
  });

  it('502 platform_upstream: a platform 5xx carries its status as upstreamStatus', async () => {
    world.sim.injectFault({ kind: '5xx', status: 500, path: `/v2/sites/${t.siteId}/pages` });
    try {
      const res = await get(t, 'page_list');
      assert.deepEqual([res.status, res.body.code, res.body.upstreamStatus], [502, 'platform_upstream', 500]);
    } finally {
      world.sim.clearFaults();
    }
  });
});
