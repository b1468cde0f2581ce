import assert from 'node:assert/strict';
import { newAccount, newUser } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { newState, signState, stateKey } from '../../../src/sitePlatform/connections/state';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { createLogger } from '../../../src/logger';
import { resolveCredentials } from '../../../src/sitePlatform/connections';
import {
  ALL_SCOPES,
  addClient,
  addSite,
  authorize,
  depsOf,
  openCallback,
  registerClient,
  startSiteWorld,
  type SiteWorld,
} from './fixtures';

describe('site platform OAuth connect', () => {
  let world: SiteWorld;
  const lines: string[] = [];
  before(async () => {
    world = await startSiteWorld(
      {},
      {
        logger: createLogger('trace', {
          write: (line: string) => {
            lines.push(line);
          },
        }),
      },
    );
  });
  after(async () => {
    await world.close();
  });

  const rowOf = (id: string) => harness().db('site_platform_connections').where({ id }).first();

  it('the authorize URL carries response_type code, the 22 scopes, the callback and a state, and no PKCE', async () => {
    const account = await newAccount();
    const client = addClient(world, [addSite(world).id]);
    await registerClient(world, account, client);
    const res = await world.app.call('POST', '/api/site-platform/connect', {
      token: account.ownerToken,
      body: { intent: 'site_account_connect' },
    });
    assert.equal(res.status, 200, res.text);
    const url = new URL(res.body.authorize_url);
    assert.equal(`${url.origin}${url.pathname}`, `${world.sim.baseUrl}/oauth/authorize`);
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.equal(url.searchParams.get('client_id'), client.clientId);
    assert.equal(url.searchParams.get('scope')!.split(' ').length, 22);
    assert.deepEqual(url.searchParams.get('scope')!.split(' '), ALL_SCOPES);
    assert.match(url.searchParams.get('redirect_uri')!, /\/api\/oauth\/site-platform\/callback$/);
    assert.ok(url.searchParams.get('state'));
    assert.equal(url.searchParams.get('code_challenge'), null);
    const ttl = Date.parse(res.body.state_expires_at) - Date.now();
    assert.ok(ttl > 290_000 && ttl <= 300_000, `state lives 5 minutes, got ${ttl} ms`);
  });

  it('an account connect stores the sealed token, the sites and the user email, and answers no token', async () => {
    const account = await newAccount();
    const site = addSite(world, 'Agency', { secondaryLocales: ['fr'], customDomains: ['www.agency.test'] });
    const client = addClient(world, [site.id]);
    await registerClient(world, account, client);
    const res = await openCallback(await authorize(world, account, { intent: 'site_account_connect' }));
    assert.equal(res.status, 200, res.text);
    const { connection, sites } = res.body;
    assert.equal(connection.auth_kind, 'oauth');
    assert.equal(connection.purpose, 'account_default');
    assert.equal(connection.status, 'active');
    assert.ok(connection.authorized_user_email);
    assert.equal(connection.rate_limit_per_minute, 60);
    assert.deepEqual(
      sites.map((s: any) => s.site_id),
      [site.id],
    );
    assert.equal(sites[0].custom_domains[0].url, 'www.agency.test');
    assert.equal(sites[0].locales.secondary.length, 1);

    const row = await rowOf(connection.id);
    assert.match(row.access_token_enc, /^v1:[^:]+:[^:]+:[^:]+$/);
    const token = createTokenCipher(world.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY).decrypt(row.access_token_enc).plaintext;
    assert.ok(!res.text.includes(token), 'the callback answer never carries the token');
    const list = await world.app.call('GET', '/api/site-platform/connections', { token: account.ownerToken });
    assert.ok(!list.text.includes(token) && !list.text.includes(row.access_token_enc));
    assert.ok(!lines.join('\n').includes(token), 'no log line carries the token');
  });

  it('a project connect writes an override connection and the project binding in the same connect', async () => {
    const account = await newAccount();
    const site = addSite(world);
    await registerClient(world, account, addClient(world, [site.id]));
    const projectId = await newProjectId(account.accountId);
    const res = await openCallback(await authorize(world, account, { intent: 'site_project_connect', project_id: projectId }));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.connection.purpose, 'project_override');
    const binding = await world.app.call('GET', `/api/site-platform/projects/${projectId}/binding`, { token: account.ownerToken });
    assert.equal(binding.body.binding.override_mode, 'override');
    assert.equal(binding.body.binding.connection_id, res.body.connection.id);
    assert.equal(binding.body.binding.site_id, site.id);
    assert.equal(binding.body.resolved.source, 'override');
  });

  it('a reconnect keeps the same row, refreshes its token and busts the cached credentials', async () => {
    const account = await newAccount();
    await registerClient(world, account, addClient(world, [addSite(world).id]));
    const first = await openCallback(await authorize(world, account, { intent: 'site_account_connect' }));
    const before = (await rowOf(first.body.connection.id)).access_token_enc;
    const cached = await resolveCredentials(depsOf(world), account.accountId);
    const again = await openCallback(
      await authorize(world, account, { intent: 'site_reconnect', connection_id: first.body.connection.id }),
    );
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.connection.id, first.body.connection.id);
    const key = world.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY;
    const after = (await rowOf(first.body.connection.id)).access_token_enc;
    assert.notEqual(createTokenCipher(key).decrypt(after).plaintext, createTokenCipher(key).decrypt(before).plaintext);
    assert.equal((await harness().db('site_platform_connections').where({ account_id: account.accountId })).length, 1);
    const fresh = await resolveCredentials(depsOf(world), account.accountId);
    assert.equal(fresh?.token, createTokenCipher(key).decrypt(after).plaintext);
    assert.notEqual(fresh?.token, cached?.token);
  });

  it('a state older than five minutes is refused with 400 invalid_oauth_state and nothing is stored', async () => {
    const account = await newAccount();
    const site = addSite(world);
    const client = addClient(world, [site.id]);
    const clientRowId = await registerClient(world, account, client);
    const stale = newState(
      { accountId: account.accountId, intent: 'site_account_connect', client: { kind: 'account', id: clientRowId } },
      Date.now() - 300_001,
    );
    const url = new URL(await authorize(world, account, { intent: 'site_account_connect' }));
    url.searchParams.set('state', signState(stateKey(harness().deps.secretHashKey), stale));
    const res = await openCallback(url);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_oauth_state');
    assert.equal((await harness().db('site_platform_connections').where({ account_id: account.accountId })).length, 0);
  });

  it('a forged state is refused with 400 invalid_oauth_state', async () => {
    const res = await openCallback(`${world.app.baseUrl}/api/oauth/site-platform/callback?code=abc&state=forged.sig`);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_oauth_state');
  });

  it('callback step 1: a client removed from the account after the start fails the connect before any exchange', async () => {
    const account = await newAccount();
    const clientRowId = await registerClient(world, account, addClient(world, [addSite(world).id]));
    const url = await authorize(world, account, { intent: 'site_account_connect' });
    await harness().db('site_platform_oauth_clients').where({ id: clientRowId }).delete();
    const res = await openCallback(url);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'site_platform_oauth_client_missing');
  });

  it('a code the platform refuses (replayed) answers 400 invalid_oauth_code', async () => {
    const account = await newAccount();
    await registerClient(world, account, addClient(world, [addSite(world).id]));
    const url = await authorize(world, account, { intent: 'site_account_connect' });
    assert.equal((await openCallback(url)).status, 200);
    const replay = await openCallback(url);
    assert.equal(replay.status, 400);
    assert.equal(replay.body.code, 'invalid_oauth_code');
  });

  describe('client resolution order', () => {
    it('(a) the named oauth_app_id wins over the service-wide client; (b) service-wide beats (c) the first registered', async () => {
      const service = addClient(world, [addSite(world).id]);
      const withService = await startSiteWorld(
        {
          SITE_PLATFORM_CLIENT_ID: service.clientId,
          SITE_PLATFORM_CLIENT_SECRET: service.clientSecret,
          SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: world.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY,
        },
        { sim: world.sim },
      );
      try {
        const account = await newAccount();
        const first = addClient(world, []);
        const second = addClient(world, []);
        await registerClient(withService, account, first);
        const secondId = await registerClient(withService, account, second);
        const clientOf = async (body: Record<string, unknown>) => {
          const res = await withService.app.call('POST', '/api/site-platform/connect', {
            token: account.ownerToken,
            body: { intent: 'site_account_connect', ...body },
          });
          assert.equal(res.status, 200, res.text);
          return [new URL(res.body.authorize_url).searchParams.get('client_id'), res.body.client];
        };
        assert.deepEqual(await clientOf({ oauth_app_id: secondId }), [second.clientId, 'account']);
        assert.deepEqual(await clientOf({}), [service.clientId, 'service']);
        const options = await withService.app.call('GET', '/api/site-platform/connect-options', { token: account.ownerToken });
        assert.equal(options.body.quick_connect, true);
        assert.ok(!options.text.includes(first.clientSecret), 'client secrets are never answered');
        // (c) without the service-wide client: the account's first registered client.
        const res = await world.app.call('POST', '/api/site-platform/connect', {
          token: account.ownerToken,
          body: { intent: 'site_account_connect' },
        });
        assert.equal(new URL(res.body.authorize_url).searchParams.get('client_id'), first.clientId);
      } finally {
        await withService.close();
      }
    });

    it('the service-wide client is used only when both its id and secret are set; no client at all is 409', async () => {
      const halfSet = await startSiteWorld({ SITE_PLATFORM_CLIENT_ID: 'only-id' }, { sim: world.sim });
      try {
        const account = await newAccount();
        const options = await halfSet.app.call('GET', '/api/site-platform/connect-options', { token: account.ownerToken });
        assert.equal(options.body.quick_connect, false, 'quick connect is offered only when both are set');
        const res = await halfSet.app.call('POST', '/api/site-platform/connect', {
          token: account.ownerToken,
          body: { intent: 'site_account_connect' },
        });
        assert.equal(res.status, 409);
        assert.equal(res.body.code, 'site_platform_oauth_client_missing');
      } finally {
        await halfSet.close();
      }
    });

    it('a reconnect uses the client the connection was made with', async () => {
      const account = await newAccount();
      const site = addSite(world);
      await registerClient(world, account, addClient(world, [site.id]));
      const second = addClient(world, [site.id]);
      const secondId = await registerClient(world, account, second);
      const made = await openCallback(await authorize(world, account, { intent: 'site_account_connect', oauth_app_id: secondId }));
      assert.equal(made.body.connection.oauth_app_id, secondId);
      const res = await world.app.call('POST', '/api/site-platform/connect', {
        token: account.ownerToken,
        body: { intent: 'site_reconnect', connection_id: made.body.connection.id },
      });
      assert.equal(new URL(res.body.authorize_url).searchParams.get('client_id'), second.clientId);
    });
  });

  it("another account's client, connection and project behave as missing (project: 404 project_not_found)", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const site = addSite(world);
    const ownersClient = await registerClient(world, owner, addClient(world, [site.id]));
    const made = await openCallback(
      await authorize(world, owner, { intent: 'site_project_connect', project_id: await newProjectId(owner.accountId) }),
    );
    const projectId = made.body.connection.project_id;
    await registerClient(world, other, addClient(world, [site.id]));
    const attempt = (body: Record<string, unknown>) =>
      world.app.call('POST', '/api/site-platform/connect', { token: other.ownerToken, body });
    assert.equal(
      (await attempt({ intent: 'site_account_connect', oauth_app_id: ownersClient })).body.code,
      'site_platform_oauth_client_not_found',
    );
    assert.equal(
      (await attempt({ intent: 'site_reconnect', connection_id: made.body.connection.id })).body.code,
      'site_platform_connection_not_found',
    );
    const sameProject = await attempt({ intent: 'site_project_connect', project_id: projectId });
    assert.deepEqual([sameProject.status, sameProject.body.code], [404, 'project_not_found']);
    const ownersBinding = await world.app.call('GET', `/api/site-platform/projects/${projectId}/binding`, { token: owner.ownerToken });
    assert.equal(ownersBinding.body.binding.connection_id, made.body.connection.id);
  });

  it('connect is owner or admin only', async () => {
    const account = await newAccount();
    const member = await newUser(account.accountId, 'member');
    const res = await world.app.call('POST', '/api/site-platform/connect', {
      token: member.token,
      body: { intent: 'site_account_connect' },
    });
    assert.equal(res.status, 403);
  });

  it('without SITE_PLATFORM_TOKEN_ENCRYPTION_KEY the connect routes answer 503 site_platform_not_configured up front', async () => {
    const keyless = await startSiteWorld({ SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: undefined }, { sim: world.sim });
    try {
      const account = await newAccount();
      const start = await keyless.app.call('POST', '/api/site-platform/connect', {
        token: account.ownerToken,
        body: { intent: 'site_account_connect' },
      });
      assert.equal(start.status, 503);
      assert.equal(start.body.code, 'site_platform_not_configured');
      const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [] });
      const calls = world.sim.requests().length;
      const paste = await keyless.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
      assert.equal(paste.status, 503);
      assert.equal(paste.body.code, 'site_platform_not_configured');
      assert.equal(world.sim.requests().length, calls, 'the platform was not called');
    } finally {
      await keyless.close();
    }
  });
});
