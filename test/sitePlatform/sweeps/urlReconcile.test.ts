import assert from 'node:assert/strict';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { addClient, addSite, authorize, openCallback, registerClient, startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { findWebhookUrlDrift } from '../../../src/sitePlatform/sweeps/urlReconcile';
import { REGISTERED_TRIGGERS } from '../../../src/sitePlatform/webhooks/registration';
import { sitePlatformWebhookUrlReconcileContract } from '../../../workflows/sitePlatformWebhookUrlReconcile.contract';
import { entryFor, expectedReceiverUrl, hooksOn, inboxItems, startSweepWorld, type OAuthTenant, type SweepWorld } from './sweepKit';

const OLD_URL = 'https://old-host.example';
const FAILED = 'site_platform_webhook_url_reconcile_failed';

describe('site-platform-webhook-url-reconcile sweep', () => {
  let world: SweepWorld;
  /** The same platform and keys, but the service answering at OLD_URL: connects there register at the old URL. */
  let oldHost: SiteWorld;
  before(async () => {
    world = await startSweepWorld();
    oldHost = await startSiteWorld({ ...world.site.config, PUBLIC_APP_URL: OLD_URL }, { sim: world.site.sim });
  });
  after(async () => {
    await oldHost.close();
    await world.close();
  });

  const sweep = (accountId: string, input: Record<string, unknown> = {}) =>
    world.run(sitePlatformWebhookUrlReconcileContract, { accountId, ...input });
  const currentUrl = (connectionId: string) =>
    expectedReceiverUrl({ config: world.config, secretHashKey: world.config.SECRET_HASH_KEY! }, connectionId);
  const rowsOf = (connectionId: string) => harness().db('site_platform_webhook_subscriptions').where({ connection_id: connectionId });
  const ownHooks = (tenant: OAuthTenant) =>
    hooksOn(world, tenant.siteId).filter((h) => h.url.includes(`/api/webhooks/site-platform/${tenant.connectionId}/`));

  /** An account connected while the service lived at OLD_URL. */
  async function connectedAtOldUrl(): Promise<OAuthTenant> {
    const account = await newAccount();
    const siteId = addSite(world.site, 'Moved').id;
    const client = addClient(world.site, [siteId]);
    await registerClient(oldHost, account, client);
    const connected = await openCallback(await authorize(oldHost, account, { intent: 'site_account_connect' }));
    assert.equal(connected.status, 200, connected.text);
    const tenant = { account, accountId: account.accountId, siteId, connectionId: connected.body.connection.id, client };
    assert.equal(ownHooks(tenant).length, REGISTERED_TRIGGERS.length);
    assert.ok(ownHooks(tenant).every((h) => h.url.startsWith(`${OLD_URL}/`)));
    return tenant;
  }

  it('after PUBLIC_APP_URL changes, every webhook moves to the new receiver URL: created there first, the old ones deleted last', async () => {
    const tenant = await connectedAtOldUrl();
    const url = currentUrl(tenant.connectionId);
    const mark = world.site.sim.requests().length;
    const summary = await sweep(tenant.accountId);
    assert.equal(summary.configured, true);
    const entry = entryFor(summary, tenant.connectionId);
    assert.deepEqual(
      [entry.status, entry.stale_urls, entry.created, entry.deleted, entry.failed_triggers, entry.still_at_old_url],
      ['reregistered', 1, 11, 11, 0, 0],
    );
    assert.deepEqual(
      ownHooks(tenant).map((h) => h.url),
      Array(11).fill(url),
    );
    const rows = await rowsOf(tenant.connectionId);
    assert.equal(rows.length, 11);
    assert.ok(rows.every((r) => r.endpoint_url === url));

    const writes = world.site.sim
      .requests()
      .slice(mark)
      .filter((r) => r.method === 'POST' || r.method === 'DELETE');
    const lastCreate = writes.map((r) => r.method).lastIndexOf('POST');
    const firstDelete = writes.map((r) => r.method).indexOf('DELETE');
    assert.ok(firstDelete > lastCreate, `creates first, deletes last: ${writes.map((r) => r.method).join(',')}`);

    // The platform now delivers to the service where it lives.
    world.site.sim.addPage(tenant.siteId, { title: 'After the move' });
    await world.site.sim.flushWebhooks();
    const delivered = world.site.sim.webhookDeliveries().filter((d) => d.siteId === tenant.siteId && d.triggerType === 'page_created');
    assert.deepEqual([delivered.at(-1)?.url, delivered.at(-1)?.status], [url, 200]);

    const again = await sweep(tenant.accountId);
    assert.equal(entryFor(again, tenant.connectionId), undefined, 'nothing left to move');
  });

  it('a connection whose webhooks cannot all move keeps the old registration of the failed trigger and gets one inbox item, deduplicated across runs', async () => {
    const tenant = await connectedAtOldUrl();
    // Other apps fill the site's 75 comment_created registrations: the new one cannot be created, so the old one stays.
    for (let i = 0; i < 74; i++) {
      world.site.sim.registerWebhookManually(tenant.siteId, { triggerType: 'comment_created', url: `https://other-app.example/c/${i}` });
    }
    const first = await sweep(tenant.accountId);
    const entry = entryFor(first, tenant.connectionId);
    assert.deepEqual([entry.status, entry.failed_triggers, entry.still_at_old_url, entry.created], ['failed', 1, 1, 10]);
    const oldComment = ownHooks(tenant).filter((h) => h.triggerType === 'comment_created');
    assert.equal(oldComment.length, 1);
    assert.ok(oldComment[0].url.startsWith(`${OLD_URL}/`), 'never deleted before its replacement exists');

    await sweep(tenant.accountId);
    const items = await inboxItems(tenant.accountId, FAILED);
    assert.equal(items.length, 1);
    assert.equal(items[0].dedup_key, `site-platform:webhook-url-reconcile-failed:${tenant.connectionId}`);
    assert.deepEqual(items[0].body.failed, [{ site_id: tenant.siteId, trigger_type: 'comment_created', code: 'webhook_limit_reached' }]);
    assert.equal(items[0].body.still_at_old_url, 1);
    assert.ok(!JSON.stringify(items[0].body).includes(currentUrl(tenant.connectionId)), 'the URL token is never in an inbox item');
  });

  it('a connection already at the current URL is not touched', async () => {
    const account = await newAccount();
    const siteId = addSite(world.site, 'Current').id;
    const client = addClient(world.site, [siteId]);
    await registerClient(world.site, account, client);
    const connected = await openCallback(await authorize(world.site, account, { intent: 'site_account_connect' }));
    const mark = world.site.sim.requests().length;
    const summary = await sweep(account.accountId);
    assert.deepEqual([summary.drifted, entryFor(summary, connected.body.connection.id)], [0, undefined]);
    assert.deepEqual(world.site.sim.requests().slice(mark), [], 'database only: no platform call');
  });

  it('without PUBLIC_APP_URL there is no current URL: nothing is compared (configured: false)', async () => {
    const { db, logger } = harness().deps;
    const page = await findWebhookUrlDrift(
      { db, logger, config: { ...world.config, PUBLIC_APP_URL: undefined }, secretHashKey: world.config.SECRET_HASH_KEY! },
      { limit: 10 },
    );
    assert.deepEqual(page, { configured: false, code: 'public_app_url_not_configured' });
  });

  it('a run out of budget stops cleanly and answers partial: true', async () => {
    const tenant = await connectedAtOldUrl();
    const summary = await sweep(tenant.accountId, { budgetMs: 1, pageSize: 1 });
    assert.equal(summary.partial, true);
  });
});
