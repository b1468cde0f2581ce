import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { newAccount, newUser } from '../../helpers/accounts';
import { newProjectId } from '../../helpers/projects';
import { bustCredentials, resolveCredentials } from '../../../src/sitePlatform/connections';
import { addSite, connectWithSiteToken, depsOf, startSiteWorld, type SiteWorld } from './fixtures';

describe('site platform credential resolution, bindings and disconnect', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  const bind = (ownerToken: string, projectId: string, body: Record<string, unknown>) =>
    world.app.call('PUT', `/api/site-platform/projects/${projectId}/binding`, { token: ownerToken, body });

  it('override first, then the account default, then none; disabled hides the default', async () => {
    const account = await newAccount();
    const deps = depsOf(world);
    const siteA = addSite(world).id;
    const siteB = addSite(world).id;
    const projectId = await newProjectId(account.accountId);
    assert.equal(await resolveCredentials(deps, account.accountId, { projectId }), null, 'none before any connection');

    const def = await connectWithSiteToken(world, account, [siteA]);
    const inherit = await resolveCredentials(deps, account.accountId, { projectId });
    assert.equal(inherit?.connectionId, def.body.connection.id);
    assert.equal(inherit?.source, 'account_default');
    assert.equal(inherit?.token, def.token);

    const over = await connectWithSiteToken(world, account, [siteB], { project_id: projectId });
    const overridden = await resolveCredentials(deps, account.accountId, { projectId });
    assert.equal(overridden?.connectionId, over.body.connection.id);
    assert.equal(overridden?.source, 'override');
    assert.equal(overridden?.siteId, siteB);

    assert.equal((await bind(account.ownerToken, projectId, { override_mode: 'disabled' })).status, 200);
    assert.equal(await resolveCredentials(deps, account.accountId, { projectId }), null);
    assert.equal((await bind(account.ownerToken, projectId, { override_mode: 'inherit' })).status, 200);
    assert.equal((await resolveCredentials(deps, account.accountId, { projectId }))?.connectionId, def.body.connection.id);
  });

  it("a requested site missing from the default connection falls back to the account's own row for that site", async () => {
    const account = await newAccount();
    const deps = depsOf(world);
    const siteA = addSite(world).id;
    const siteB = addSite(world).id;
    const def = await connectWithSiteToken(world, account, [siteA]);
    const other = await connectWithSiteToken(world, account, [siteB], { project_id: await newProjectId(account.accountId) });
    const viaDefault = await resolveCredentials(deps, account.accountId, { siteId: siteA });
    assert.equal(viaDefault?.connectionId, def.body.connection.id);
    const viaRow = await resolveCredentials(deps, account.accountId, { siteId: siteB });
    assert.equal(viaRow?.connectionId, other.body.connection.id);
    assert.equal(viaRow?.source, 'site_row');
    assert.equal(await resolveCredentials(deps, account.accountId, { siteId: 'site_nowhere' }), null);
  });

  it('an override keeps its own connection when another connection shares its site later; once its grant drops the site it falls through to the default', async () => {
    const account = await newAccount();
    const deps = depsOf(world);
    const site = addSite(world).id;
    const projectId = await newProjectId(account.accountId);
    const first = await connectWithSiteToken(world, account, [site], { project_id: projectId });
    // Another connection of the account shares the same site later: the site row names it, the override stays its own.
    const second = await connectWithSiteToken(world, account, [site]);
    const resolved = await resolveCredentials(deps, account.accountId, { projectId });
    assert.notEqual(first.body.connection.id, second.body.connection.id);
    assert.equal(resolved?.connectionId, first.body.connection.id);
    assert.equal(resolved?.source, 'override');
    assert.equal(resolved?.siteId, site);
    // What a reconnect whose grant no longer reaches the site leaves behind.
    await harness().db('site_platform_connection_sites').where({ connection_id: first.body.connection.id, site_id: site }).delete();
    bustCredentials(account.accountId);
    const moved = await resolveCredentials(deps, account.accountId, { projectId });
    assert.equal(moved?.connectionId, second.body.connection.id);
    assert.equal(moved?.source, 'account_default');
  });

  it('decrypted credentials are cached 60 s per account, project and site on an injected clock', async () => {
    const account = await newAccount();
    let now = Date.now();
    const deps = depsOf(world, () => now);
    const site = addSite(world).id;
    const made = await connectWithSiteToken(world, account, [site]);
    const first = await resolveCredentials(deps, account.accountId, { siteId: site });
    // Changed behind the cache's back (no bust): the cached answer stands until 60 s have passed.
    await harness().db('site_platform_connections').where({ id: made.body.connection.id }).update({ disconnected_at: new Date() });
    now += 59_000;
    assert.equal((await resolveCredentials(deps, account.accountId, { siteId: site }))?.connectionId, first?.connectionId);
    now += 1_000;
    assert.equal(await resolveCredentials(deps, account.accountId, { siteId: site }), null);
  });

  it('a disconnected connection is never resolved again: the cache is busted and the token dropped', async () => {
    const account = await newAccount();
    const deps = depsOf(world);
    const site = addSite(world).id;
    const made = await connectWithSiteToken(world, account, [site]);
    assert.ok(await resolveCredentials(deps, account.accountId, { siteId: site }), 'cached now');
    const member = await newUser(account.accountId, 'member');
    const path = `/api/site-platform/connections/${made.body.connection.id}/disconnect`;
    assert.equal((await world.app.call('POST', path, { token: member.token })).status, 403, 'member cannot disconnect');
    const res = await world.app.call('POST', path, { token: account.ownerToken });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'disconnected');
    assert.ok(res.body.disconnected_at);
    assert.equal(await resolveCredentials(deps, account.accountId, { siteId: site }), null);
    assert.equal(await resolveCredentials(deps, account.accountId, {}), null);
    const row = await harness().db('site_platform_connections').where({ id: made.body.connection.id }).first();
    assert.equal(row.access_token_enc, null);
  });

  it('concurrent binding PUTs of one project all answer 200 and leave one row holding one of the bodies', async () => {
    const account = await newAccount();
    const projectId = await newProjectId(account.accountId);
    const modes = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'inherit' : 'disabled'));
    const answers = await Promise.all(modes.map((override_mode) => bind(account.ownerToken, projectId, { override_mode })));
    assert.deepEqual(
      answers.map((res) => res.status),
      modes.map(() => 200),
      answers.find((res) => res.status !== 200)?.text,
    );
    const rows = await harness().db('site_platform_project_bindings').where({ project_id: projectId });
    assert.equal(rows.length, 1);
    assert.ok(modes.includes(rows[0].override_mode));
    assert.deepEqual([rows[0].account_id, rows[0].connection_id, rows[0].site_id], [account.accountId, null, null]);
  });

  it("another account's connection, binding, project and sites behave as missing", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const site = addSite(world).id;
    const projectId = await newProjectId(owner.accountId);
    const made = await connectWithSiteToken(world, owner, [site], { project_id: projectId });
    const id = made.body.connection.id;
    const call = (method: string, path: string, body?: unknown) => world.app.call(method, path, { token: other.ownerToken, body });
    assert.equal((await call('GET', `/api/site-platform/connections/${id}`)).status, 404);
    assert.equal((await call('POST', `/api/site-platform/connections/${id}/disconnect`)).status, 404);
    const own = await call('GET', `/api/site-platform/projects/${projectId}/binding`);
    assert.deepEqual([own.status, own.body.code], [404, 'project_not_found']);
    const put = await call('PUT', `/api/site-platform/projects/${projectId}/binding`, { override_mode: 'disabled' });
    assert.deepEqual([put.status, put.body.code], [404, 'project_not_found']);
    const owners = await world.app.call('GET', `/api/site-platform/projects/${projectId}/binding`, { token: owner.ownerToken });
    assert.deepEqual([owners.body.binding.override_mode, owners.body.resolved.connection_id], ['override', id]);
    const otherProject = await newProjectId(other.accountId);
    const foreignRef = await call('PUT', `/api/site-platform/projects/${otherProject}/binding`, {
      override_mode: 'override',
      connection_id: id,
    });
    assert.equal(foreignRef.status, 400);
    assert.equal(foreignRef.body.code, 'invalid_reference');
    const foreignSite = await call('PUT', `/api/site-platform/projects/${otherProject}/binding`, {
      override_mode: 'inherit',
      site_id: site,
    });
    assert.equal(foreignSite.body.code, 'invalid_reference');
    assert.deepEqual((await call('GET', '/api/site-platform/connections')).body.data, []);
    assert.deepEqual((await call('GET', '/api/site-platform/sites')).body.data, []);
    assert.equal(await resolveCredentials(depsOf(world), other.accountId, { siteId: site }), null);
    assert.equal(await resolveCredentials(depsOf(world), other.accountId, { projectId }), null);
  });

  it('an agency and its client account may both hold the same site', async () => {
    const agency = await newAccount();
    const client = await newAccount();
    const site = addSite(world).id;
    await connectWithSiteToken(world, agency, [site]);
    await connectWithSiteToken(world, client, [site]);
    for (const account of [agency, client]) {
      const sites = await world.app.call('GET', '/api/site-platform/sites', { token: account.ownerToken });
      assert.deepEqual(
        sites.body.data.map((s: any) => s.site_id),
        [site],
      );
    }
  });
});
