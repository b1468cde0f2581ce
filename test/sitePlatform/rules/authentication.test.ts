import assert from 'node:assert/strict';
import { OPERATIONS, getOperation } from '../../../src/sitePlatform/registry';
import { newState, signState, stateKey } from '../../../src/sitePlatform/connections/state';
import { newAccount, newAgentKey } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import {
  ALL_SCOPES,
  addClient,
  addSite,
  followConsent,
  openCallback,
  registerClient,
  startSiteWorld,
  type SiteWorld,
} from '../connections/fixtures';
import { OPS, builderOps, newTenant, platformCallsSince, query, type Tenant, useTenantWorld } from '../operations/fixtures';

// Being written by someone else (composites over custom code); their gates are proved by the registry tests.
const NOT_YET_ROUTED = new Set(['service_snippet_install', 'service_snippet_remove']);

describe('doc2 Authentication (rules 1–7 and 10)', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });

  const connectionsOf = (accountId: string) => harness().db('site_platform_connections').where({ account_id: accountId });
  const exchanges = (mark: number) => platformCallsSince(world, mark).filter((c) => c.includes('/oauth/access_token'));

  /** Starts a connect as the account's owner and follows the platform's consent; answers the callback URL. */
  async function consented(ownerToken: string, body: Record<string, unknown>): Promise<URL> {
    const start = await world.app.call('POST', '/api/site-platform/connect', { token: ownerToken, body });
    assert.equal(start.status, 200, start.text);
    return followConsent(world, start.body.authorize_url);
  }

  describe('rule 3: callback steps', () => {
    it("another account cannot bind the caller's project between the start and the callback (404 project_not_found): the connect completes for the caller", async () => {
      const b = await newAccount();
      const site = addSite(world);
      await registerClient(world, b, addClient(world, [site.id]));
      const projectId = await newProjectId(b.accountId);
      const callback = await consented(b.ownerToken, { intent: 'site_project_connect', project_id: projectId });
      const a = await newAccount();
      const foreign = await world.app.call('PUT', `/api/site-platform/projects/${projectId}/binding`, {
        token: a.ownerToken,
        body: { override_mode: 'inherit' },
      });
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'project_not_found']);
      const res = await openCallback(callback);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.connection.project_id, projectId);
      assert.equal((await connectionsOf(b.accountId)).length, 1);
      assert.equal((await harness().db('site_platform_project_bindings').where({ project_id: projectId })).length, 1);
    });

    it('a project deleted between the start and the callback is refused 404 project_not_found before the code is exchanged', async () => {
      const account = await newAccount();
      const site = addSite(world);
      await registerClient(world, account, addClient(world, [site.id]));
      const projectId = await newProjectId(account.accountId);
      const callback = await consented(account.ownerToken, { intent: 'site_project_connect', project_id: projectId });
      assert.equal((await world.app.call('DELETE', `/api/projects/${projectId}`, { token: account.ownerToken })).status, 204);
      const mark = world.sim.requests().length;
      const res = await openCallback(callback);
      assert.deepEqual([res.status, res.body.code], [404, 'project_not_found']);
      assert.deepEqual(exchanges(mark), []);
      assert.equal((await connectionsOf(account.accountId)).length, 0);
    });

    it('a reconnect of a connection disconnected between the start and the callback is refused 409 before the code is exchanged', async () => {
      const account = await newAccount();
      const site = addSite(world);
      await registerClient(world, account, addClient(world, [site.id]));
      const made = await openCallback(await consented(account.ownerToken, { intent: 'site_account_connect' }));
      assert.equal(made.status, 200, made.text);
      const id = made.body.connection.id;
      const callback = await consented(account.ownerToken, { intent: 'site_reconnect', connection_id: id });
      assert.equal(
        (await world.app.call('POST', `/api/site-platform/connections/${id}/disconnect`, { token: account.ownerToken })).status,
        200,
      );
      const mark = world.sim.requests().length;
      const res = await openCallback(callback);
      assert.deepEqual([res.status, res.body.code], [409, 'site_platform_connection_disconnected']);
      assert.deepEqual(exchanges(mark), []);
    });

    it('a project connect naming a site the grant does not reach is 400 invalid_reference and stores nothing', async () => {
      const account = await newAccount();
      const granted = addSite(world);
      const other = addSite(world);
      await registerClient(world, account, addClient(world, [granted.id]));
      const res = await openCallback(
        await consented(account.ownerToken, {
          intent: 'site_project_connect',
          project_id: await newProjectId(account.accountId),
          site_id: other.id,
        }),
      );
      assert.deepEqual([res.status, res.body.code], [400, 'invalid_reference']);
      assert.equal((await connectionsOf(account.accountId)).length, 0);
    });
  });

  describe('rule 4: site token', () => {
    it('"at least 20 characters": exactly 20 is sent to the platform for validation; 19 (after trimming) is 400 before it, and never echoed', async () => {
      const account = await newAccount();
      const paste = (token: string) =>
        world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
      const nineteen = 'q'.repeat(19);
      let mark = world.sim.requests().length;
      for (const token of [nineteen, `   ${nineteen}   `]) {
        const short = await paste(token);
        assert.deepEqual([short.status, short.body.code], [400, 'validation_failed']);
        assert.ok(!short.text.includes(nineteen), 'the token is never echoed');
      }
      assert.deepEqual(platformCallsSince(world, mark), []);
      const twenty = 'q'.repeat(20);
      mark = world.sim.requests().length;
      const res = await paste(twenty);
      assert.deepEqual([res.status, res.body.code], [400, 'invalid_site_token'], 'the platform, not the length check, refused it');
      assert.ok(platformCallsSince(world, mark).some((c) => c.includes('/token/introspect')));
      assert.ok(!res.text.includes(twenty));
    });
  });

  describe('rule 5: capabilities of a site token', () => {
    it('each OAuth-only operation answers a site token 412 oauth_required and never reaches the platform', async () => {
      const gated = OPERATIONS.filter((op) => op.requiresOAuth && !NOT_YET_ROUTED.has(op.name));
      assert.equal(gated.length + NOT_YET_ROUTED.size, 15);
      const mark = world.sim.requests().length;
      for (const op of gated) {
        const params = { action: op.name, site_id: t.siteId, confirm: true };
        const res =
          op.kind === 'read'
            ? await world.app.call('GET', `${OPS}${query({ action: op.name, site_id: t.siteId })}`, { token: t.account.agentKey })
            : await world.app.call('POST', OPS, { token: t.account.agentKey, body: params });
        assert.deepEqual([op.name, res.status, res.body.code], [op.name, 412, 'oauth_required']);
      }
      assert.deepEqual(platformCallsSince(world, mark), []);
    });

    it('webhook_delete is not gated on auth kind: a site token reaches the platform', async () => {
      const mark = world.sim.requests().length;
      const res = await world.app.call('POST', OPS, {
        token: t.account.agentKey,
        body: { action: 'webhook_delete', site_id: t.siteId, webhook_id: 'wh_unknown', confirm: true },
      });
      assert.notEqual(res.body.code, 'oauth_required');
      assert.ok(platformCallsSince(world, mark).includes('DELETE /v2/webhooks/wh_unknown'), res.text);
    });

    it('CMS, pages, SEO, assets, ecommerce, publishing and Google tags work with a site token', async () => {
      const shop = await newTenant(world);
      world.sim.siteData(shop.siteId).ecommerce = true;
      const read = (action: string, params: Record<string, string> = {}) =>
        world.app.call('GET', `${OPS}${query({ action, site_id: shop.siteId, ...params })}`, { token: shop.account.agentKey });
      const write = (body: Record<string, unknown>) =>
        world.app.call('POST', OPS, { token: shop.account.agentKey, body: { site_id: shop.siteId, ...body } });
      const answers = [
        ['cms', await read('cms_item_list', { collection_id: shop.collectionId })],
        ['pages', await read('page_list')],
        ['seo', await write({ action: 'page_metadata_update', page_id: shop.pageId, seo: { title: 'Token SEO' } })],
        ['assets', await read('asset_list')],
        ['ecommerce', await read('product_list')],
        ['google tags', await read('google_tag_list')],
        ['publishing', await write({ action: 'site_publish', confirm: true, publishToWebflowSubdomain: true })],
      ] as const;
      for (const [family, res] of answers) assert.equal(res.status, 200, `${family}: ${res.text}`);
    });
  });

  describe('rule 6: token storage', () => {
    it('the OAuth callback also refuses up front without SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: 503 before any platform call', async () => {
      const keyless = await startSiteWorld({ SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: undefined }, { sim: world.sim });
      try {
        const account = await newAccount();
        const state = signState(
          stateKey(harness().deps.secretHashKey),
          newState({ accountId: account.accountId, intent: 'site_account_connect', client: { kind: 'service' } }, Date.now()),
        );
        const mark = world.sim.requests().length;
        const res = await openCallback(`${keyless.app.baseUrl}/api/oauth/site-platform/callback${query({ code: 'any-code', state })}`);
        assert.deepEqual([res.status, res.body.code], [503, 'site_platform_not_configured']);
        const register = await keyless.app.call('POST', '/api/site-platform/oauth-clients', {
          token: account.ownerToken,
          body: { client_id: 'cid-x', client_secret: 'secret-x' },
        });
        assert.deepEqual([register.status, register.body.code], [503, 'site_platform_not_configured']);
        assert.deepEqual(platformCallsSince(world, mark), []);
        assert.equal((await harness().db('site_platform_oauth_clients').where({ account_id: account.accountId })).length, 0);
      } finally {
        await keyless.close();
      }
    });

    it('a pasted site token is stored as a v1:iv:ct:tag envelope and no route answers it', async () => {
      const account = await newAccount();
      const site = addSite(world);
      const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id] });
      const projectId = await newProjectId(account.accountId);
      const made = await world.app.call('POST', '/api/site-platform/site-token', {
        token: account.ownerToken,
        body: { token, project_id: projectId },
      });
      assert.equal(made.status, 201, made.text);
      const row = await harness().db('site_platform_connections').where({ id: made.body.connection.id }).first();
      assert.match(row.access_token_enc, /^v1:[^:]+:[^:]+:[^:]+$/);
      assert.ok(!row.access_token_enc.includes(token));
      const answers = [
        made,
        await world.app.call('GET', '/api/site-platform/connections', { token: account.ownerToken }),
        await world.app.call('GET', `/api/site-platform/connections/${row.id}`, { token: account.ownerToken }),
        await world.app.call('GET', `/api/site-platform/projects/${projectId}/binding`, { token: account.ownerToken }),
        await world.app.call('GET', `${OPS}${query({ action: 'token_introspect' })}`, { token: account.agentKey }),
      ];
      for (const res of answers) assert.ok(!res.text.includes(token) && !res.text.includes(row.access_token_enc), res.text);
    });

    it('credentials are busted on disconnect: the next operation is 412 site_platform_not_connected without reaching the platform', async () => {
      const fresh = await newTenant(world);
      const read = () =>
        world.app.call('GET', `${OPS}${query({ action: 'cms_collection_list', site_id: fresh.siteId })}`, {
          token: fresh.account.agentKey,
        });
      assert.equal((await read()).status, 200, 'resolved and cached');
      const [row] = await connectionsOf(fresh.account.accountId);
      assert.equal(
        (await world.app.call('POST', `/api/site-platform/connections/${row.id}/disconnect`, { token: fresh.account.ownerToken })).status,
        200,
      );
      const mark = world.sim.requests().length;
      const res = await read();
      assert.deepEqual([res.status, res.body.code], [412, 'site_platform_not_connected']);
      assert.deepEqual(platformCallsSince(world, mark), []);
    });
  });

  describe('rule 7: operation route credentials', () => {
    it('the agent route takes an agent API key bearer only: none is 401, a session token 401, a read-only key cannot POST', async () => {
      const path = `${OPS}${query({ action: 'site_list' })}`;
      const none = await world.app.call('GET', path);
      assert.deepEqual([none.status, none.body.code], [401, 'missing_credentials']);
      const session = await world.app.call('GET', path, { token: t.account.ownerToken });
      assert.deepEqual([session.status, session.body.code], [401, 'wrong_credential_kind']);
      const secret = await world.app.call('GET', path, { headers: { 'x-agent-secret': harness().deps.config.AGENT_SECRET! } });
      assert.equal(secret.status, 401);
      const readOnly = await newAgentKey(t.account.accountId, ['site_platform:read', 'site_platform:write'], true);
      assert.equal((await world.app.call('GET', path, { token: readOnly })).status, 200);
      const write = await world.app.call('POST', OPS, {
        token: readOnly,
        body: {
          action: 'cms_item_update',
          site_id: t.siteId,
          collection_id: t.collectionId,
          item_id: t.itemIds[0],
          fieldData: { name: 'x' },
        },
      });
      assert.deepEqual([write.status, write.body.code], [403, 'read_only_key']);
    });

    it('the dashboard route takes a session or x-agent-secret: an agent key is 401, and each of the two is served', async () => {
      const path = `${builderOps(t.projectId)}${query({ action: 'cms_collection_list' })}`;
      const agent = await world.app.call('GET', path, { token: t.account.agentKey });
      assert.deepEqual([agent.status, agent.body.code], [401, 'wrong_credential_kind']);
      assert.equal((await world.app.call('GET', path)).status, 401);
      assert.equal((await world.app.call('GET', path, { token: t.account.ownerToken })).status, 200);
      assert.equal((await world.app.call('GET', path, { headers: { 'x-agent-secret': harness().deps.config.AGENT_SECRET! } })).status, 200);
    });
  });

  describe('rule 10: gates', () => {
    it('over the route, scope is checked before confirm and confirm before auth kind, and none reaches the platform', async () => {
      const narrow = await newTenant(world, { scopes: ALL_SCOPES.filter((s) => s !== 'custom_code:write') });
      const body = { action: 'site_customcode_upsert', scripts: [] };
      const mark = world.sim.requests().length;
      const scope = await world.app.call('POST', OPS, { token: narrow.account.agentKey, body: { ...body, site_id: narrow.siteId } });
      assert.deepEqual([scope.status, scope.body.code, scope.body.missing_scopes], [412, 'missing_scopes', ['custom_code:write']]);
      const confirm = await world.app.call('POST', OPS, { token: t.account.agentKey, body: { ...body, site_id: t.siteId } });
      assert.deepEqual([confirm.status, confirm.body.code], [412, 'confirm_required']);
      const kind = await world.app.call('POST', OPS, { token: t.account.agentKey, body: { ...body, site_id: t.siteId, confirm: true } });
      assert.deepEqual([kind.status, kind.body.code], [412, 'oauth_required']);
      assert.deepEqual(platformCallsSince(world, mark), []);
    });

    it('"where the OFF half of a pair asks, the ON half asks too": every confirm-gated OFF operation has a confirm-gated ON half', () => {
      const pairs: Array<[off: string, on: string]> = [
        ['cms_item_unpublish', 'cms_item_publish'],
        ['cms_item_unpublish_bulk', 'cms_item_publish'],
        ['site_customcode_delete', 'site_customcode_upsert'],
        ['page_customcode_delete', 'page_customcode_upsert'],
        ['google_tag_delete', 'google_tag_upsert'],
        ['service_snippet_remove', 'service_snippet_install'],
        ['webhook_delete', 'webhook_create'],
        ['redirect_delete', 'redirect_create'],
        ['wellknown_delete', 'wellknown_create'],
        ['llms_txt_delete', 'llms_txt_update'],
        ['robots_delete', 'robots_merge'],
        ['robots_delete', 'robots_replace'],
      ];
      for (const [off, on] of pairs) {
        const [offOp, onOp] = [getOperation(off), getOperation(on)];
        assert.ok(offOp && onOp, `${off} / ${on} exist`);
        if (offOp.confirmGated) assert.equal(onOp.confirmGated, true, `${on} asks for confirm like ${off}`);
      }
      assert.equal(
        getOperation('project_cms_provider_set')?.confirmGated,
        true,
        'the content-source switch is one operation for both halves',
      );
    });
  });
});
