import assert from 'node:assert/strict';
import { createLogger } from '../../../src/logger';
import { newAccount } from '../../helpers/accounts';
import { ALL_SCOPES, addSite, startSiteWorld, type SiteWorld } from './fixtures';

describe('site platform pasted site token', () => {
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

  const paste = (ownerToken: string, body: Record<string, unknown>) =>
    world.app.call('POST', '/api/site-platform/site-token', { token: ownerToken, body });

  it('a valid token is checked with introspect and sites, stored as auth_kind site_token, and never echoed or logged', async () => {
    const account = await newAccount();
    const site = addSite(world);
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id] });
    const calls = world.sim.requests().length;
    const res = await paste(account.ownerToken, { token });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.connection.auth_kind, 'site_token');
    assert.equal(res.body.connection.authorized_user_email, null);
    assert.deepEqual(
      res.body.sites.map((s: any) => s.site_id),
      [site.id],
    );
    const paths = world.sim
      .requests()
      .slice(calls)
      .map((r) => r.path);
    assert.ok(paths.some((p) => p.endsWith('/token/introspect')) && paths.some((p) => p.endsWith('/sites')), paths.join(','));
    assert.ok(!res.text.includes(token));
    assert.ok(!lines.join('\n').includes(token), 'no log line carries the token');
  });

  it('a token shorter than 20 characters is 400 before the platform is called, and the error does not repeat it', async () => {
    const account = await newAccount();
    const calls = world.sim.requests().length;
    const res = await paste(account.ownerToken, { token: 'short-token-1234567' });
    assert.equal(res.status, 400);
    assert.ok(!res.text.includes('short-token-1234567'));
    assert.equal(world.sim.requests().length, calls);
  });

  it('a token the platform rejects is 400 invalid_site_token, nothing stored, not echoed', async () => {
    const account = await newAccount();
    const bogus = 'x'.repeat(40);
    const res = await paste(account.ownerToken, { token: bogus });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_site_token');
    assert.ok(!res.text.includes(bogus));
    const list = await world.app.call('GET', '/api/site-platform/connections', { token: account.ownerToken });
    assert.deepEqual(list.body.data, []);
  });

  it('a platform failure during validation stores nothing and answers the coded upstream error', async () => {
    const account = await newAccount();
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [addSite(world).id] });
    world.sim.injectFault({ kind: '5xx', status: 503, path: '/token/introspect', times: 3 });
    try {
      const res = await paste(account.ownerToken, { token });
      assert.equal(res.status, 502, res.text);
      assert.equal(res.body.code, 'platform_upstream');
    } finally {
      world.sim.clearFaults();
    }
    const list = await world.app.call('GET', '/api/site-platform/connections', { token: account.ownerToken });
    assert.deepEqual(list.body.data, []);
  });
});
