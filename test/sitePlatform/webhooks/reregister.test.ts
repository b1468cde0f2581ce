import assert from 'node:assert/strict';
import { newAccount, newUser } from '../../helpers/accounts';
import { ALL_SCOPES, addSite, startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { connectOAuth, hooksOf, oauthAccount, requestsSince, subscriptionRows } from './registrationFixtures';

describe('POST /api/builder/site-platform/connections/{id}/reregister-webhooks', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  const reregister = (token: string, id: string) =>
    world.app.call('POST', `/api/builder/site-platform/connections/${id}/reregister-webhooks`, { token });

  it('re-registers on every site of the connection at the current URL: adopts what exists, creates what is missing', async () => {
    const { account, sites } = await oauthAccount(world, 2);
    const body = await connectOAuth(world, account);
    const gone = hooksOf(world, sites[1].id).find((h) => h.triggerType === 'comment_created')!;
    hooksOf(world, sites[1].id).splice(hooksOf(world, sites[1].id).indexOf(gone), 1);
    const res = await reregister(account.ownerToken, body.connection.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.connection_id, body.connection.id);
    const bySite = Object.fromEntries(res.body.sites.map((s: any) => [s.site_id, s]));
    assert.deepEqual(bySite[sites[0].id], { site_id: sites[0].id, created: 0, adopted: 11, deleted: 0, failed: [] });
    assert.deepEqual(bySite[sites[1].id], { site_id: sites[1].id, created: 1, adopted: 10, deleted: 0, failed: [] });
    assert.equal(hooksOf(world, sites[1].id).length, 11);
    const rows = await subscriptionRows(account.accountId, sites[1].id);
    assert.ok(!rows.some((r: any) => r.webhook_id === gone.id), 'the row of a registration the platform no longer lists is dropped');
    assert.equal(rows.length, 11);
    assert.ok(!res.text.includes('/api/webhooks/site-platform/'), 'the answer never shows the receiver URL');
  });

  it("404 for an unknown id, a malformed id and another account's connection, before any platform call", async () => {
    const { account } = await oauthAccount(world);
    const body = await connectOAuth(world, account);
    const stranger = await newAccount();
    const from = world.sim.requests().length;
    for (const id of [crypto.randomUUID(), 'not-a-uuid', body.connection.id]) {
      const res = await reregister(stranger.ownerToken, id);
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'site_platform_connection_not_found');
    }
    assert.deepEqual(requestsSince(world, from), []);
  });

  it('409 for a disconnected connection', async () => {
    const { account } = await oauthAccount(world);
    const body = await connectOAuth(world, account);
    const off = await world.app.call('POST', `/api/site-platform/connections/${body.connection.id}/disconnect`, {
      token: account.ownerToken,
    });
    assert.equal(off.status, 200, off.text);
    const from = world.sim.requests().length;
    const res = await reregister(account.ownerToken, body.connection.id);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'site_platform_connection_disconnected');
    assert.deepEqual(requestsSince(world, from), []);
  });

  it('412 oauth_required for a site token, before any platform call', async () => {
    const account = await newAccount();
    const site = addSite(world);
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id] });
    const pasted = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
    const from = world.sim.requests().length;
    const res = await reregister(account.ownerToken, pasted.body.connection.id);
    assert.equal(res.status, 412);
    assert.equal(res.body.code, 'oauth_required');
    assert.deepEqual(requestsSince(world, from), []);
  });

  it('owner or admin only: a member is refused and nothing is called', async () => {
    const { account } = await oauthAccount(world);
    const body = await connectOAuth(world, account);
    const member = await newUser(account.accountId, 'member');
    const admin = await newUser(account.accountId, 'admin');
    const from = world.sim.requests().length;
    const refused = await reregister(member.token, body.connection.id);
    assert.equal(refused.status, 403, refused.text);
    assert.deepEqual(requestsSince(world, from), []);
    const ok = await reregister(admin.token, body.connection.id);
    assert.equal(ok.status, 200, ok.text);
  });
});
