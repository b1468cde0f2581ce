import assert from 'node:assert/strict';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { ALL_SCOPES, addSite, depsOf, startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { registerConnectionWebhooks } from '../../../src/sitePlatform/webhooks/registration';
import { connectOAuth, hooksOf, oauthAccount, receiverUrl, requestsSince, subscriptionRows } from './registrationFixtures';

describe('GET|POST /api/builder/site-platform/{projectId}/forms/routing', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  const path = (projectId: string) => `/api/builder/site-platform/${projectId}/forms/routing`;

  /** An account whose project is bound (OAuth override) to a fresh site with its 11 webhooks registered. */
  async function boundProject() {
    const { account, sites } = await oauthAccount(world);
    const projectId = await newProjectId(account.accountId);
    const body = await connectOAuth(world, account, { intent: 'site_project_connect', project_id: projectId, site_id: sites[0].id });
    const siteId = sites[0].id;
    const url = receiverUrl(world, body.connection.id);
    const read = () => world.app.call('GET', path(projectId), { token: account.ownerToken });
    const post = (b: unknown) => world.app.call('POST', path(projectId), { token: account.ownerToken, body: b });
    const formHooks = () => hooksOf(world, siteId).filter((h) => h.triggerType === 'form_submission' && h.url === url);
    return { account, projectId, siteId, connectionId: body.connection.id, url, read, post, formHooks };
  }

  it('reads the default: site-wide, with its one live unfiltered registration (never its URL)', async () => {
    const p = await boundProject();
    const res = await p.read();
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mode, 'site_wide');
    assert.equal(res.body.site_id, p.siteId);
    assert.equal(res.body.connection_id, p.connectionId);
    assert.equal(res.body.site_wide_hook_live, true);
    assert.deepEqual(res.body.forms, []);
    assert.equal(res.body.registrations.length, 1);
    assert.equal(res.body.registrations[0].filter, null);
    assert.equal(res.body.registrations[0].receiver, 'current');
    assert.ok(!res.text.includes(p.url));
  });

  it("the service secret (x-agent-secret) reads and switches for the project's owner; X-Account-Id naming another account is 404", async () => {
    const p = await boundProject();
    const secret = harness().deps.config.AGENT_SECRET!;
    const res = await world.app.call('POST', path(p.projectId), {
      headers: { 'x-agent-secret': secret },
      body: { mode: 'per_form', forms: [{ name: 'Contact' }] },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mode, 'per_form');
    const other = await newAccount();
    const refused = await world.app.call('GET', path(p.projectId), {
      headers: { 'x-agent-secret': secret, 'x-account-id': other.accountId },
    });
    assert.equal(refused.status, 404, refused.text);
    assert.equal(refused.body.code, 'project_not_found');
  });

  it('a one-form switch under a live site-wide hook is 409 form_routing_site_wide and changes nothing', async () => {
    const p = await boundProject();
    const before = hooksOf(world, p.siteId).map((h) => h.id);
    const from = world.sim.requests().length;
    const res = await p.post({ form: { name: 'Contact' }, routed: true });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'form_routing_site_wide');
    assert.deepEqual(
      hooksOf(world, p.siteId).map((h) => h.id),
      before,
    );
    assert.ok(
      requestsSince(world, from).every((r) => r.startsWith('GET')),
      'nothing was created or deleted',
    );
    assert.equal((await p.read()).body.mode, 'site_wide');
  });

  it('switching the site to per-form creates one filtered registration per form first, then deletes the site-wide one; one form can then be turned on and off', async () => {
    const p = await boundProject();
    const siteWide = p.formHooks()[0];
    const from = world.sim.requests().length;
    const res = await p.post({ mode: 'per_form', forms: [{ name: 'Contact' }, { name: 'Newsletter' }, { name: 'Contact' }] });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mode, 'per_form');
    assert.deepEqual(res.body.forms, [{ name: 'Contact' }, { name: 'Newsletter' }]);
    assert.equal(res.body.site_wide_hook_live, false);
    assert.deepEqual(res.body.report, { site_id: p.siteId, created: 2, adopted: 10, deleted: 1, failed: [] });
    const calls = requestsSince(world, from).filter((c) => !c.startsWith('GET'));
    assert.deepEqual(calls, [
      `POST /v2/sites/${p.siteId}/webhooks`,
      `POST /v2/sites/${p.siteId}/webhooks`,
      `DELETE /v2/webhooks/${siteWide.id}`,
    ]);
    assert.deepEqual(
      p
        .formHooks()
        .map((h) => h.filter?.name)
        .sort(),
      ['Contact', 'Newsletter'],
    );
    assert.ok(!(await subscriptionRows(p.account.accountId, p.siteId)).some((r: any) => r.webhook_id === siteWide.id));

    const on = await p.post({ form: { name: 'Quote' }, routed: true });
    assert.equal(on.status, 200, on.text);
    assert.deepEqual(
      p
        .formHooks()
        .map((h) => h.filter?.name)
        .sort(),
      ['Contact', 'Newsletter', 'Quote'],
    );
    const off = await p.post({ form: { name: 'Contact' }, routed: false });
    assert.equal(off.status, 200, off.text);
    assert.deepEqual(off.body.forms, [{ name: 'Newsletter' }, { name: 'Quote' }]);
    assert.deepEqual(
      p
        .formHooks()
        .map((h) => h.filter?.name)
        .sort(),
      ['Newsletter', 'Quote'],
    );
    const rows = await subscriptionRows(p.account.accountId, p.siteId);
    assert.deepEqual(
      rows
        .filter((r: any) => r.trigger_type === 'form_submission')
        .map((r: any) => r.filter?.name)
        .sort(),
      ['Newsletter', 'Quote'],
    );
  });

  it('a site switched to per-form never regains the site-wide hook on reconnect or reconcile', async () => {
    const p = await boundProject();
    assert.equal((await p.post({ mode: 'per_form', forms: [{ name: 'Contact' }] })).status, 200);
    await connectOAuth(world, p.account, { intent: 'site_reconnect', connection_id: p.connectionId });
    await registerConnectionWebhooks(depsOf(world), p.account.accountId, p.connectionId);
    const hooks = p.formHooks();
    assert.deepEqual(
      hooks.map((h) => h.filter),
      [{ name: 'Contact' }],
    );
    assert.equal((await p.read()).body.site_wide_hook_live, false);
  });

  it('enabling site-wide creates the one unfiltered registration first, then deletes every per-form one', async () => {
    const p = await boundProject();
    await p.post({ mode: 'per_form', forms: [{ name: 'A' }, { name: 'B' }] });
    const perForm = p.formHooks().map((h) => h.id);
    const from = world.sim.requests().length;
    const res = await p.post({ mode: 'site_wide' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mode, 'site_wide');
    assert.equal(res.body.site_wide_hook_live, true);
    const calls = requestsSince(world, from).filter((c) => !c.startsWith('GET'));
    assert.equal(calls[0], `POST /v2/sites/${p.siteId}/webhooks`);
    assert.deepEqual(calls.slice(1).sort(), perForm.map((id) => `DELETE /v2/webhooks/${id}`).sort());
    assert.deepEqual(
      p.formHooks().map((h) => h.filter),
      [null],
    );
    // And a one-form switch is refused again.
    assert.equal((await p.post({ form: { name: 'A' }, routed: true })).body.code, 'form_routing_site_wide');
  });

  it('a site token is 412 oauth_required for GET and POST before the platform is called', async () => {
    const account = await newAccount();
    const site = addSite(world);
    const projectId = await newProjectId(account.accountId);
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id] });
    const pasted = await world.app.call('POST', '/api/site-platform/site-token', {
      token: account.ownerToken,
      body: { token, project_id: projectId, site_id: site.id },
    });
    assert.equal(pasted.status, 201, pasted.text);
    const from = world.sim.requests().length;
    const get = await world.app.call('GET', path(projectId), { token: account.ownerToken });
    const post = await world.app.call('POST', path(projectId), { token: account.ownerToken, body: { mode: 'site_wide' } });
    for (const res of [get, post]) {
      assert.equal(res.status, 412, res.text);
      assert.equal(res.body.code, 'oauth_required');
    }
    assert.deepEqual(requestsSince(world, from), []);
  });

  it("validates: malformed bodies are 400, a project with no connection is 412, another account's project is 404", async () => {
    const p = await boundProject();
    const from = world.sim.requests().length;
    for (const body of [
      {},
      { mode: 'per_form' },
      { mode: 'per_form', forms: [] },
      { mode: 'per_form', forms: [{ name: '  ' }] },
      { mode: 'sitewide' },
      { form: { name: 'A' } },
      { form: { name: 'A', id: 'x' }, routed: true },
      { mode: 'site_wide', form: { name: 'A' }, routed: true },
      { mode: 'per_form', forms: Array.from({ length: 76 }, (_, i) => ({ name: `F${i}` })) },
    ]) {
      const res = await p.post(body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.status} ${res.text}`);
      assert.equal(res.body.code, 'validation_failed');
    }
    assert.deepEqual(requestsSince(world, from), []);

    const bare = await newProjectId(p.account.accountId);
    const none = await world.app.call('GET', path(bare), { token: p.account.ownerToken });
    assert.equal(none.status, 412, none.text);
    assert.equal(none.body.code, 'site_platform_not_connected');

    const stranger = await newAccount();
    for (const id of [p.projectId, 'nope']) {
      const res = await world.app.call('GET', path(id), { token: stranger.ownerToken });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'project_not_found');
    }
  });
});
