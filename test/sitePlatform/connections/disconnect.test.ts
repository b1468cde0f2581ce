import assert from 'node:assert/strict';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { OPS } from '../operations/fixtures';
import {
  addClient,
  addSite,
  authorize,
  connectWithSiteToken,
  openCallback,
  registerClient,
  startSiteWorld,
  type SiteWorld,
} from './fixtures';

describe('site platform disconnect: explicit revocation, and projects falling back to the native CMS until a connect restores them', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  interface Oauthed {
    account: TestAccount;
    siteId: string;
    connectionId: string;
    client: { clientId: string; clientSecret: string };
  }
  async function oauthAccount(): Promise<Oauthed> {
    const account = await newAccount();
    const siteId = addSite(world, 'Fallback').id;
    const client = addClient(world, [siteId]);
    await registerClient(world, account, client);
    const connected = await openCallback(await authorize(world, account, { intent: 'site_account_connect' }));
    assert.equal(connected.status, 200, connected.text);
    return { account, siteId, connectionId: connected.body.connection.id, client };
  }
  const disconnect = (a: TestAccount, id: string) =>
    world.app.call('POST', `/api/site-platform/connections/${id}/disconnect`, { token: a.ownerToken });
  const capabilities = (a: TestAccount, projectId: string) =>
    world.app.call('GET', `/api/builder/site-platform/${projectId}/cms-capabilities`, { token: a.ownerToken });
  async function platformProject(a: TestAccount, siteId: string): Promise<string> {
    const projectId = await newProjectId(a.accountId);
    await saveBinding(harness().db, a.accountId, projectId, { override_mode: 'inherit', connection_id: null, site_id: siteId });
    const res = await world.app.call('POST', OPS, {
      token: a.agentKey,
      body: { action: 'project_cms_provider_set', project_id: projectId, provider: 'site_platform', site_id: siteId, confirm: true },
    });
    assert.equal(res.status, 200, res.text);
    return projectId;
  }

  it('revocation is explicit: disconnecting an OAuth connection revokes its token on the platform', async () => {
    const a = await oauthAccount();
    const row = await harness().db('site_platform_connections').where({ id: a.connectionId }).first();
    const token = createTokenCipher(world.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY).decrypt(row.access_token_enc).plaintext;
    const res = await disconnect(a.account, a.connectionId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.revocation, 'revoked');
    assert.ok(res.body.disconnected_at);
    assert.ok(!res.text.includes(token));
    const introspect = await fetch(`${world.sim.baseUrl}/token/introspect`, { headers: { authorization: `Bearer ${token}` } });
    await introspect.arrayBuffer();
    assert.equal(introspect.status, 401, 'the platform no longer takes the token');
  });

  it('a failed revocation does not stop the disconnect', async () => {
    const a = await oauthAccount();
    world.sim.injectFault({ kind: '5xx', status: 503, path: '/oauth/revoke_authorization' });
    try {
      const res = await disconnect(a.account, a.connectionId);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.revocation, 'failed');
      assert.ok(res.body.disconnected_at);
    } finally {
      world.sim.clearFaults();
    }
  });

  it('a site token has nothing to revoke through the API (revocation not_applicable)', async () => {
    const account = await newAccount();
    const siteId = addSite(world, 'Token').id;
    const { body } = await connectWithSiteToken(world, account, [siteId]);
    const res = await disconnect(account, body.connection?.id ?? body.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.revocation, 'not_applicable');
  });

  it('a project on the platform CMS falls back to the native CMS when its connection goes, and an account connect restores it', async () => {
    const a = await oauthAccount();
    const projectId = await platformProject(a.account, a.siteId);
    const res = await disconnect(a.account, a.connectionId);
    assert.deepEqual(res.body.reverted_project_ids, [projectId]);
    const fallen = await capabilities(a.account, projectId);
    assert.equal(fallen.body.provider, 'native');
    assert.ok(fallen.body.reverted_at);

    const again = await openCallback(await authorize(world, a.account, { intent: 'site_account_connect' }));
    assert.equal(again.status, 200, again.text);
    const restored = await capabilities(a.account, projectId);
    assert.equal(restored.body.provider, 'site_platform');
    assert.equal(restored.body.site_id, a.siteId);
    assert.equal(restored.body.reverted_at, null);
  });

  it('a project switched by hand after the fallback is not restored', async () => {
    const a = await oauthAccount();
    const projectId = await platformProject(a.account, a.siteId);
    await disconnect(a.account, a.connectionId);
    const manual = await world.app.call('POST', OPS, {
      token: a.account.agentKey,
      body: { action: 'project_cms_provider_set', project_id: projectId, provider: 'native', confirm: true },
    });
    assert.equal(manual.status, 200, manual.text);
    await openCallback(await authorize(world, a.account, { intent: 'site_account_connect' }));
    assert.equal((await capabilities(a.account, projectId)).body.provider, 'native');
  });

  it('a project whose site another live connection still reaches (its own override) keeps the platform CMS', async () => {
    const a = await oauthAccount();
    const projectId = await platformProject(a.account, a.siteId);
    await connectWithSiteToken(world, a.account, [a.siteId], { project_id: projectId, site_id: a.siteId });
    const res = await disconnect(a.account, a.connectionId);
    assert.deepEqual(res.body.reverted_project_ids, []);
    assert.equal((await capabilities(a.account, projectId)).body.provider, 'site_platform');
  });
});
