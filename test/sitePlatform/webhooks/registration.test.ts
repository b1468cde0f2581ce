import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createLogger } from '../../../src/logger';
import { harness } from '../../helpers/harness';
import { newAccount } from '../../helpers/accounts';
import { ALL_SCOPES, addSite, depsOf, startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { registerConnectionWebhooks } from '../../../src/sitePlatform/webhooks/registration';
import { withSiteWebhookLock } from '../../../src/sitePlatform/webhooks/siteLock';
import { urlTokenOf } from '../../../src/sitePlatform/webhooks/urlToken';
import { runOperation } from '../../../src/sitePlatform/operations/runner';
import { TRIGGERS, connectOAuth, hooksOf, oauthAccount, receiverUrl, requestsSince, subscriptionRows } from './registrationFixtures';

describe('site platform webhook registration', () => {
  let world: SiteWorld;
  const lines: string[] = [];
  before(async () => {
    world = await startSiteWorld({}, { logger: createLogger('trace', { write: (line: string) => void lines.push(line) }) });
  });
  after(async () => {
    await world.close();
  });

  it('an OAuth connect registers the 11 triggers on every shared site (form_submission unfiltered) and stores only the SHA-256 of the URL token', async () => {
    const { account, sites } = await oauthAccount(world, 2);
    const body = await connectOAuth(world, account);
    const connectionId = body.connection.id;
    const url = receiverUrl(world, connectionId);
    const token = urlTokenOf(harness().deps.secretHashKey, connectionId);
    assert.ok(url.endsWith(`/api/webhooks/site-platform/${connectionId}/${token}`));
    for (const site of sites) {
      const hooks = hooksOf(world, site.id);
      assert.deepEqual(hooks.map((h) => h.triggerType).sort(), [...TRIGGERS].sort());
      assert.ok(hooks.every((h) => h.url === url && h.filter === null));
    }
    const row = await harness().db('site_platform_connections').where({ id: connectionId }).first();
    assert.equal(row.webhook_url_token_hash, createHash('sha256').update(token).digest('hex'));
    assert.ok(!JSON.stringify(row).includes(token), 'the token itself is stored nowhere on the row');
    assert.equal((await subscriptionRows(account.accountId)).length, 22);
    assert.deepEqual(
      body.webhooks.registered.map((s: any) => [s.site_id, s.created, s.adopted, s.deleted, s.failed.length]).sort(),
      sites.map((s) => [s.id, 11, 0, 0, 0]).sort(),
    );
    assert.equal(body.webhooks.skipped, undefined);
    assert.equal(body.webhooks.receiver_url, undefined, 'an OAuth connect never shows the receiver URL');
    assert.ok(!lines.join('\n').includes(token), 'no log line carries the URL token');
  });

  it('a reconnect and a reconcile list first and adopt the matching registrations instead of duplicating them', async () => {
    const { account, sites } = await oauthAccount(world);
    const first = await connectOAuth(world, account);
    const again = await connectOAuth(world, account, { intent: 'site_reconnect', connection_id: first.connection.id });
    assert.deepEqual(again.webhooks.registered, [{ site_id: sites[0].id, created: 0, adopted: 11, deleted: 0, failed: [] }]);
    const from = world.sim.requests().length;
    const report = await registerConnectionWebhooks(depsOf(world), account.accountId, first.connection.id);
    assert.deepEqual(report.sites, [{ site_id: sites[0].id, created: 0, adopted: 11, deleted: 0, failed: [] }]);
    assert.deepEqual(requestsSince(world, from), [`GET /v2/sites/${sites[0].id}/webhooks`], 'a reconcile with nothing to do only lists');
    assert.equal(hooksOf(world, sites[0].id).length, 11);
    assert.equal((await subscriptionRows(account.accountId)).length, 11);
  });

  it('at most 75 registrations per trigger per site: a full trigger is refused locally and the other ten are registered', async () => {
    const { account, sites } = await oauthAccount(world);
    const hooks = hooksOf(world, sites[0].id);
    for (let i = 0; i < 75; i++) {
      hooks.push({
        id: `other${i}`,
        triggerType: 'form_submission',
        url: `https://elsewhere.example/${i}`,
        filter: null,
        createdOn: new Date().toISOString(),
        lastTriggered: null,
        registeredBy: { kind: 'manual' },
      });
    }
    const from = world.sim.requests().length;
    const body = await connectOAuth(world, account);
    const [site] = body.webhooks.registered;
    assert.equal(site.created, 10);
    assert.deepEqual(site.failed, [{ trigger_type: 'form_submission', code: 'webhook_limit_reached' }]);
    assert.equal(
      requestsSince(world, from).filter((r) => r === `POST /v2/sites/${sites[0].id}/webhooks`).length,
      10,
      'the 76th is never sent',
    );
    assert.equal(hooksOf(world, sites[0].id).filter((h) => h.triggerType === 'form_submission').length, 75);
  });

  it('re-registration at a new URL creates every new registration first and deletes the stale ones last', async () => {
    const { account, sites } = await oauthAccount(world);
    const body = await connectOAuth(world, account);
    const connectionId = body.connection.id;
    const oldIds = hooksOf(world, sites[0].id).map((h) => h.id);
    const moved = depsOf(world);
    moved.config = { ...moved.config, PUBLIC_APP_URL: 'https://moved.example.test' };
    const from = world.sim.requests().length;
    const report = await registerConnectionWebhooks(moved, account.accountId, connectionId);
    assert.deepEqual(report.sites, [{ site_id: sites[0].id, created: 11, adopted: 0, deleted: 11, failed: [] }]);
    const calls = requestsSince(world, from).filter((c) => !c.startsWith('GET'));
    const lastCreate = calls.map((c) => c.startsWith('POST')).lastIndexOf(true);
    const firstDelete = calls.findIndex((c) => c.startsWith('DELETE'));
    assert.equal(calls.length, 22);
    assert.ok(lastCreate < firstDelete, `creates first, deletes last: ${calls.join(', ')}`);
    const hooks = hooksOf(world, sites[0].id);
    assert.equal(hooks.length, 11);
    assert.ok(hooks.every((h) => h.url.startsWith('https://moved.example.test/api/webhooks/site-platform/') && !oldIds.includes(h.id)));
    const rows = await subscriptionRows(account.accountId);
    assert.deepEqual(rows.map((r: any) => r.webhook_id).sort(), hooks.map((h) => h.id).sort());
  });

  it('a stale registration whose delete the platform fails keeps its subscription row', async () => {
    const { account, sites } = await oauthAccount(world);
    const body = await connectOAuth(world, account);
    const moved = depsOf(world);
    moved.config = { ...moved.config, PUBLIC_APP_URL: 'https://moved-again.example.test' };
    const hooks = hooksOf(world, sites[0].id);
    const victim = hooks.find((h) => h.triggerType === 'site_publish')!;
    world.sim.injectFault({ kind: '5xx', status: 503, path: `/webhooks/${victim.id}`, times: 1 });
    const report = await registerConnectionWebhooks(moved, account.accountId, body.connection.id);
    assert.equal(report.sites[0].deleted, 10);
    assert.deepEqual(report.sites[0].failed, [{ trigger_type: 'site_publish', code: 'platform_upstream' }]);
    const rows = await subscriptionRows(account.accountId);
    assert.ok(
      rows.some((r: any) => r.webhook_id === victim.id),
      'the row stays until the platform confirms the delete',
    );
    assert.equal(rows.length, 12);
  });

  it('two concurrent registrations on one site create no duplicates (per-site advisory lock)', async () => {
    const { account, sites } = await oauthAccount(world);
    const body = await connectOAuth(world, account);
    hooksOf(world, sites[0].id).length = 0;
    const deps = depsOf(world);
    const [a, b] = await Promise.all([
      registerConnectionWebhooks(deps, account.accountId, body.connection.id),
      registerConnectionWebhooks(deps, account.accountId, body.connection.id),
    ]);
    assert.equal(hooksOf(world, sites[0].id).length, 11);
    assert.deepEqual([a.sites[0].created, b.sites[0].created].sort(), [0, 11]);
    assert.deepEqual([a.sites[0].adopted, b.sites[0].adopted].sort(), [0, 11]);
    const rows = await subscriptionRows(account.accountId);
    assert.deepEqual(
      rows.map((r: any) => r.webhook_id).sort(),
      hooksOf(world, sites[0].id)
        .map((h) => h.id)
        .sort(),
    );
  });

  it('a site token the platform refuses: webhooks.skipped site_token_refused, the receiver URL in that answer only, one inbox item with the steps', async () => {
    const account = await newAccount();
    const site = addSite(world);
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id] });
    const res = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
    assert.equal(res.status, 201, res.text);
    const connectionId = res.body.connection.id;
    const url = receiverUrl(world, connectionId);
    assert.equal(res.body.webhooks.skipped, 'site_token_refused');
    assert.equal(res.body.webhooks.receiver_url, url);
    assert.deepEqual(res.body.webhooks.registered[0].failed.length, 11);
    assert.equal(hooksOf(world, site.id).length, 0);
    const row = await harness().db('site_platform_connections').where({ id: connectionId }).first();
    assert.equal(
      row.webhook_url_token_hash,
      createHash('sha256').update(urlTokenOf(harness().deps.secretHashKey, connectionId)).digest('hex'),
    );

    const again = await world.app.call('GET', `/api/site-platform/connections/${connectionId}`, { token: account.ownerToken });
    assert.ok(!again.text.includes(urlTokenOf(harness().deps.secretHashKey, connectionId)), 'no other answer shows the URL');
    const items = await harness().db('inbox_items').where({ account_id: account.accountId, kind: 'site_platform_webhooks_manual' });
    assert.equal(items.length, 1);
    const text = JSON.stringify(items[0]);
    assert.ok(!text.includes(urlTokenOf(harness().deps.secretHashKey, connectionId)), 'the inbox item never carries the URL token');
    assert.deepEqual(items[0].body.triggers.sort(), [...TRIGGERS].sort());
    assert.ok(items[0].body.steps.length >= 3);

    const repaste = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
    assert.equal(repaste.body.webhooks.skipped, 'site_token_refused');
    assert.equal(
      (await harness().db('inbox_items').where({ account_id: account.accountId, kind: 'site_platform_webhooks_manual' })).length,
      1,
    );
    assert.ok(!lines.join('\n').includes(urlTokenOf(harness().deps.secretHashKey, connectionId)));
  });

  it('webhooks a site-token user added by hand at the receiver URL are adopted on the next connect, and nothing is skipped', async () => {
    const account = await newAccount();
    const site = addSite(world);
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id] });
    const first = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
    const url = first.body.webhooks.receiver_url;
    for (const triggerType of TRIGGERS) {
      hooksOf(world, site.id).push({
        id: `manual_${triggerType}_${site.id}`,
        triggerType,
        url,
        filter: null,
        createdOn: new Date().toISOString(),
        lastTriggered: null,
        registeredBy: { kind: 'manual' },
      });
    }
    const res = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
    assert.deepEqual(res.body.webhooks, { registered: [{ site_id: site.id, created: 0, adopted: 11, deleted: 0, failed: [] }] });
    assert.equal((await subscriptionRows(account.accountId)).length, 11);
  });

  it('webhook_delete holds the site lock and removes the subscription row only after the platform confirmed (2xx or 404)', async () => {
    const { account, sites } = await oauthAccount(world);
    const body = await connectOAuth(world, account);
    const deps = depsOf(world);
    const siteId = sites[0].id;
    const [first, second] = hooksOf(world, siteId);
    const del = (webhookId: string) =>
      runOperation(deps, {
        accountId: account.accountId,
        method: 'POST',
        action: 'webhook_delete',
        params: { site_id: siteId, webhook_id: webhookId, confirm: true },
        actor: async () => 'test',
      });
    const rowExists = async (id: string) => (await subscriptionRows(account.accountId)).some((r: any) => r.webhook_id === id);

    // A failed delete keeps the row.
    world.sim.injectFault({ kind: '5xx', status: 500, path: `/webhooks/${first.id}` });
    await assert.rejects(del(first.id), (err: any) => err.code === 'platform_upstream');
    assert.ok(await rowExists(first.id));

    // While a registration holds the site's lock, the delete waits.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inLock = new Promise<void>((resolve) => (entered = resolve));
    const holder = withSiteWebhookLock(deps.db, siteId, async () => {
      entered();
      await held;
    });
    await inLock;
    const from = world.sim.requests().length;
    const pending = del(first.id);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(requestsSince(world, from), [], 'the delete did not reach the platform while the lock was held');
    assert.ok(await rowExists(first.id));
    release();
    await holder;
    await pending;
    assert.ok(!(await rowExists(first.id)), 'a 2xx removes the row');
    assert.ok(!hooksOf(world, siteId).some((h) => h.id === first.id));

    // Gone on the platform already: its 404 is answered, and the row goes.
    hooksOf(world, siteId).splice(hooksOf(world, siteId).indexOf(second), 1);
    await assert.rejects(del(second.id), (err: any) => err.status === 404);
    assert.ok(!(await rowExists(second.id)));
    assert.equal(body.webhooks.registered[0].created, 11);
  });
});
