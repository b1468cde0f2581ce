import assert from 'node:assert/strict';
import { resolveCredentials } from '../../../src/sitePlatform/connections';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { newProjectId } from '../../helpers/projects';
import { ALL_SCOPES, addSite, depsOf, startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { OPS, query } from '../operations/fixtures';

/**
 * doc2 Resolution rule: override first, then account default, then none; a site row shared by several connections
 * never lets one connection's credentials stand in for another's. One account holds a full-scope default D, a
 * project override P without the comment scopes and a project override Q with sites:read only, all on one site, plus
 * an inherit project R. The binding read, the runner and resolveCredentials must name the same connection for every
 * caller; then each connection is disconnected in turn.
 */
describe('doc2 Resolution rule: override, then account default, then none, on a site shared by several connections', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  type Caller = 'account' | 'P' | 'Q' | 'R';
  const CALLERS: Caller[] = ['account', 'P', 'Q', 'R'];
  const WITHOUT_COMMENTS = ALL_SCOPES.filter((s) => !s.startsWith('comments:'));

  interface Matrix {
    account: TestAccount;
    siteId: string;
    projects: Record<Exclude<Caller, 'account'>, string>;
    connections: Record<'D' | 'P' | 'Q', string>;
  }

  async function pasteToken(account: TestAccount, siteId: string, scopes: string[], projectId?: string): Promise<string> {
    const token = world.sim.issueToken({ scopes, siteIds: [siteId] });
    const res = await world.app.call('POST', '/api/site-platform/site-token', {
      token: account.ownerToken,
      body: { token, ...(projectId ? { project_id: projectId } : {}) },
    });
    assert.equal(res.status, 201, res.text);
    return res.body.connection.id;
  }

  async function setUp(): Promise<Matrix> {
    const account = await newAccount();
    const site = addSite(world, 'Shared');
    world.sim.addCollection(site.id, { displayName: 'Posts', singularName: 'Post' });
    const projects = {
      P: await newProjectId(account.accountId),
      Q: await newProjectId(account.accountId),
      R: await newProjectId(account.accountId),
    };
    const D = await pasteToken(account, site.id, ALL_SCOPES);
    const P = await pasteToken(account, site.id, WITHOUT_COMMENTS, projects.P);
    const Q = await pasteToken(account, site.id, ['sites:read'], projects.Q);
    const inherit = await world.app.call('PUT', `/api/site-platform/projects/${projects.R}/binding`, {
      token: account.ownerToken,
      body: { override_mode: 'inherit', site_id: site.id },
    });
    assert.equal(inherit.status, 200, inherit.text);
    for (const projectId of Object.values(projects)) {
      const switched = await world.app.call('POST', OPS, {
        token: account.agentKey,
        body: { action: 'project_cms_provider_set', project_id: projectId, provider: 'site_platform', site_id: site.id, confirm: true },
      });
      assert.equal(switched.status, 200, switched.text);
    }
    return { account, siteId: site.id, projects, connections: { D, P, Q } };
  }

  const projectOf = (m: Matrix, caller: Caller) => (caller === 'account' ? undefined : m.projects[caller]);

  /** Which gates the runner's credentials pass: cms:read (D and P), comments:read (D only). */
  async function runnerPasses(m: Matrix, caller: Caller): Promise<{ cms: boolean; comments: boolean } | 'not_connected'> {
    const run = async (action: string) => {
      const params: Record<string, string> = { action, site_id: m.siteId };
      const projectId = projectOf(m, caller);
      if (projectId) params.project_id = projectId;
      const res = await world.app.call('GET', `${OPS}${query(params)}`, { token: m.account.agentKey });
      if (res.status === 412 && res.body.code === 'site_platform_not_connected') return 'not_connected' as const;
      return !(res.status === 412 && res.body.code === 'missing_scopes');
    };
    const cms = await run('cms_collection_list');
    const comments = await run('comment_thread_list');
    if (cms === 'not_connected' || comments === 'not_connected') return 'not_connected';
    return { cms, comments };
  }

  const signatureOf = (connection: 'D' | 'P' | 'Q' | null) =>
    connection === null
      ? 'not_connected'
      : { D: { cms: true, comments: true }, P: { cms: true, comments: false }, Q: { cms: false, comments: false } }[connection];

  /** Every caller resolves to the expected connection through resolveCredentials, the binding read and the runner. */
  async function expectResolution(m: Matrix, expected: Record<Caller, 'D' | 'P' | 'Q' | null>, step: string) {
    const deps = depsOf(world);
    for (const caller of CALLERS) {
      const want = expected[caller] && m.connections[expected[caller]!];
      const resolved = await resolveCredentials(deps, m.account.accountId, { projectId: projectOf(m, caller), siteId: m.siteId });
      assert.equal(resolved?.connectionId ?? null, want, `${step}: resolveCredentials for ${caller}`);
      assert.deepEqual(await runnerPasses(m, caller), signatureOf(expected[caller]), `${step}: the runner's credentials for ${caller}`);
      if (caller === 'account') continue;
      const read = await world.app.call('GET', `/api/site-platform/projects/${m.projects[caller]}/binding${query({ site_id: m.siteId })}`, {
        token: m.account.ownerToken,
      });
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.resolved?.connection_id ?? null, want, `${step}: the binding read for ${caller}`);
      const bindingOnly = await world.app.call('GET', `/api/site-platform/projects/${m.projects[caller]}/binding`, {
        token: m.account.ownerToken,
      });
      assert.equal(bindingOnly.body.resolved?.connection_id ?? null, want, `${step}: the binding read without site_id for ${caller}`);
    }
  }

  async function disconnect(m: Matrix, which: 'D' | 'P' | 'Q'): Promise<string[]> {
    const res = await world.app.call('POST', `/api/site-platform/connections/${m.connections[which]}/disconnect`, {
      token: m.account.ownerToken,
    });
    assert.equal(res.status, 200, res.text);
    return [...res.body.reverted_project_ids].sort();
  }

  async function providers(m: Matrix): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [name, projectId] of Object.entries(m.projects)) {
      const res = await world.app.call('GET', `/api/builder/site-platform/${projectId}/cms-capabilities`, { token: m.account.ownerToken });
      assert.equal(res.status, 200, res.text);
      out[name] = res.body.provider;
    }
    return out;
  }

  const ALL_LIVE = { account: 'D', P: 'P', Q: 'Q', R: 'D' } as const;

  it('with the default and both overrides live, each caller runs on its own connection (the latest override never stands in)', async () => {
    const m = await setUp();
    await expectResolution(m, ALL_LIVE, 'all live');
    const bound = await world.app.call('GET', `/api/site-platform/projects/${m.projects.P}/binding`, { token: m.account.ownerToken });
    assert.equal(bound.body.binding.connection_id, m.connections.P);
  });

  it('disconnecting an override leaves the default and the other override alone; its project falls back to the default', async () => {
    const m = await setUp();
    assert.deepEqual(await disconnect(m, 'Q'), [], 'nothing reverts: the default still reaches the site');
    await expectResolution(m, { account: 'D', P: 'P', Q: 'D', R: 'D' }, 'Q disconnected');
    assert.deepEqual(await disconnect(m, 'P'), []);
    await expectResolution(m, { account: 'D', P: 'D', Q: 'D', R: 'D' }, 'P and Q disconnected');
    assert.deepEqual(await providers(m), { P: 'site_platform', Q: 'site_platform', R: 'site_platform' });
    assert.deepEqual(
      await disconnect(m, 'D'),
      [m.projects.P, m.projects.Q, m.projects.R].sort(),
      'no connection reaches the site any more',
    );
    await expectResolution(m, { account: null, P: null, Q: null, R: null }, 'all disconnected');
  });

  it('disconnecting the other override first is symmetric', async () => {
    const m = await setUp();
    assert.deepEqual(await disconnect(m, 'P'), []);
    await expectResolution(m, { account: 'D', P: 'D', Q: 'Q', R: 'D' }, 'P disconnected');
  });

  it('disconnecting the default leaves each override on its own connection; inherit projects have no connection and revert', async () => {
    const m = await setUp();
    assert.deepEqual(await disconnect(m, 'D'), [m.projects.R], 'only the inherit project loses its connection');
    const afterDefault = await resolveCredentials(depsOf(world), m.account.accountId, { siteId: m.siteId });
    // Account-level calls fall back to a live connection holding the site (doc2: the account's own row for that site).
    assert.ok(afterDefault && [m.connections.P, m.connections.Q].includes(afterDefault.connectionId));
    assert.equal(afterDefault.source, 'site_row');
    for (const caller of ['P', 'Q', 'R'] as const) {
      const expected = caller === 'R' ? null : m.connections[caller];
      assert.equal(
        (await resolveCredentials(depsOf(world), m.account.accountId, { projectId: m.projects[caller], siteId: m.siteId }))?.connectionId ??
          null,
        expected,
        caller,
      );
    }
    assert.deepEqual(await providers(m), { P: 'site_platform', Q: 'site_platform', R: 'native' });
  });
});
