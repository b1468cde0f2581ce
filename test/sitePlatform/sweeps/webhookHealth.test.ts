import assert from 'node:assert/strict';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { addSite, connectWithSiteToken } from '../connections/fixtures';
import { sitePlatformWebhookHealthContract } from '../../../workflows/sitePlatformWebhookHealth.contract';
import { REGISTERED_TRIGGERS } from '../../../src/sitePlatform/webhooks/registration';
import {
  ageInstall,
  entryFor,
  expectedReceiverUrl,
  hooksOn,
  inboxItems,
  oauthTenant,
  startSweepWorld,
  type OAuthTenant,
  type SweepWorld,
} from './sweepKit';

const SILENT = 'site_platform_webhooks_silent';
const NOT_RECEIVED = 'site_platform_webhooks_not_received';
const REPAIR_FAILED = 'site_platform_webhooks_repair_failed';

describe('site-platform-webhook-health sweep', () => {
  let world: SweepWorld;
  before(async () => {
    world = await startSweepWorld();
  });
  after(async () => {
    await world.close();
  });

  const sweep = (accountId: string, input: Record<string, unknown> = {}) =>
    world.run(sitePlatformWebhookHealthContract, { accountId, ...input });
  const urlOf = (connectionId: string) =>
    expectedReceiverUrl({ config: world.config, secretHashKey: world.config.SECRET_HASH_KEY! }, connectionId);
  const webhookWrites = (since: number) =>
    world.site.sim
      .requests()
      .slice(since)
      .filter((r) => r.method !== 'GET' && r.path.includes('webhooks'));

  /** Every wanted trigger exactly once at the receiver URL, and a subscription row for each. */
  async function assertRegistered(tenant: OAuthTenant) {
    const url = urlOf(tenant.connectionId);
    const ours = hooksOn(world, tenant.siteId).filter((h) => h.url.includes(`/api/webhooks/site-platform/${tenant.connectionId}/`));
    assert.deepEqual(ours.map((h) => h.triggerType).sort(), [...REGISTERED_TRIGGERS].sort());
    assert.ok(ours.every((h) => h.url === url));
    const rows = await harness().db('site_platform_webhook_subscriptions').where({ connection_id: tenant.connectionId });
    assert.deepEqual(rows.map((r) => r.webhook_id).sort(), ours.map((h) => h.id).sort());
  }

  it('an OAuth connection with every registration in place is healthy and nothing is written on the platform', async () => {
    const tenant = await oauthTenant(world);
    await assertRegistered(tenant);
    const mark = world.site.sim.requests().length;
    const summary = await sweep(tenant.accountId);
    assert.deepEqual([summary.checked, summary.healthy, entryFor(summary, tenant.connectionId)], [1, 1, undefined]);
    assert.deepEqual(webhookWrites(mark), []);
  });

  it('a registration deleted on the platform is registered again at the receiver URL; another app’s registration is left alone', async () => {
    const tenant = await oauthTenant(world);
    const otherApp = world.site.sim.registerWebhookManually(tenant.siteId, {
      triggerType: 'form_submission',
      url: 'https://other-app.example/hook',
    });
    const hooks = hooksOn(world, tenant.siteId);
    const gone = hooks.find((h) => h.triggerType === 'form_submission' && h.url === urlOf(tenant.connectionId))!;
    hooks.splice(hooks.indexOf(gone), 1);

    const summary = await sweep(tenant.accountId);
    const entry = entryFor(summary, tenant.connectionId);
    assert.deepEqual(
      [entry.status, entry.missing, entry.stale_rows, entry.at_other_url, entry.registration.created, entry.registration.failed],
      ['reregistered', 1, 1, 0, 1, 0],
    );
    assert.equal(summary.reregistered, 1);
    await assertRegistered(tenant);
    assert.ok(hooksOn(world, tenant.siteId).some((h) => h.id === otherApp.id && h.url === 'https://other-app.example/hook'));

    const again = await sweep(tenant.accountId);
    assert.equal(entryFor(again, tenant.connectionId), undefined, 'healthy again');
  });

  it('a registration of the connection at another URL is replaced: created at the receiver URL, the old one deleted', async () => {
    const tenant = await oauthTenant(world);
    const moved = hooksOn(world, tenant.siteId).find((h) => h.triggerType === 'site_publish')!;
    const oldUrl = `https://old-host.example/api/webhooks/site-platform/${tenant.connectionId}/old-token`;
    moved.url = oldUrl;

    const summary = await sweep(tenant.accountId);
    const entry = entryFor(summary, tenant.connectionId);
    assert.deepEqual([entry.status, entry.at_other_url, entry.missing], ['reregistered', 1, 1]);
    assert.deepEqual([entry.registration.created, entry.registration.deleted], [1, 1]);
    assert.ok(!hooksOn(world, tenant.siteId).some((h) => h.url === oldUrl));
    await assertRegistered(tenant);
  });

  it('per-form routing is honoured: a per-form site gets one filtered form_submission per form name, never the site-wide one', async () => {
    const tenant = await oauthTenant(world);
    await harness()
      .db('site_platform_form_routing')
      .insert({ account_id: tenant.accountId, site_id: tenant.siteId, mode: 'per_form', form_names: JSON.stringify(['Contact', 'Quote']) });
    const summary = await sweep(tenant.accountId);
    const entry = entryFor(summary, tenant.connectionId);
    assert.deepEqual([entry.status, entry.missing], ['reregistered', 2]);
    const forms = hooksOn(world, tenant.siteId).filter((h) => h.triggerType === 'form_submission' && h.url === urlOf(tenant.connectionId));
    assert.deepEqual(forms.map((h) => (h.filter as { name?: string } | null)?.name ?? null).sort(), ['Contact', 'Quote']);
    assert.equal(entryFor(await sweep(tenant.accountId), tenant.connectionId), undefined, 'stable: nothing to repair next time');
  });

  it('a listing failure is reported failed; a repair that cannot complete raises one inbox item, deduplicated across runs', async () => {
    const tenant = await oauthTenant(world);
    const hooks = hooksOn(world, tenant.siteId);
    hooks.splice(hooks.indexOf(hooks.find((h) => h.triggerType === 'comment_created')!), 1);
    world.site.sim.injectFault({ kind: '5xx', status: 500, path: /\/sites\/[^/]+\/webhooks$/, times: 1_000 });
    try {
      // The listing itself fails now: reported failed (nothing is known, nothing changed).
      const blind = await sweep(tenant.accountId);
      assert.deepEqual(
        [entryFor(blind, tenant.connectionId).status, entryFor(blind, tenant.connectionId).code],
        ['failed', 'platform_upstream'],
      );
    } finally {
      world.site.sim.clearFaults();
    }
    // The listing works, but other apps hold all 75 comment_created registrations the platform allows on the site.
    const limit = hooksOn(world, tenant.siteId);
    for (let i = 0; i < 75; i++) {
      world.site.sim.registerWebhookManually(tenant.siteId, { triggerType: 'comment_created', url: `https://other-app.example/c/${i}` });
    }
    assert.equal(limit.filter((h) => h.triggerType === 'comment_created').length, 75);
    const first = await sweep(tenant.accountId);
    const entry = entryFor(first, tenant.connectionId);
    assert.deepEqual([entry.status, entry.registration.failed, entry.inbox_items_created], ['reregister_failed', 1, 1]);
    const second = await sweep(tenant.accountId);
    assert.equal(entryFor(second, tenant.connectionId).inbox_items_created, 0);
    const items = await inboxItems(tenant.accountId, REPAIR_FAILED);
    assert.equal(items.length, 1);
    assert.deepEqual(items[0].body.failed, [{ site_id: tenant.siteId, trigger_type: 'comment_created', code: 'webhook_limit_reached' }]);
  });

  it('an OAuth connection silent for 7 days gets one inbox item, deduplicated across runs', async () => {
    const tenant = await oauthTenant(world);
    await ageInstall(tenant.connectionId, 7 * 24 + 1);
    const first = await sweep(tenant.accountId);
    const entry = entryFor(first, tenant.connectionId);
    assert.deepEqual([entry.status, entry.silent, entry.inbox_items_created], ['healthy', true, 1]);
    const second = await sweep(tenant.accountId);
    assert.deepEqual([entryFor(second, tenant.connectionId).silent, entryFor(second, tenant.connectionId).inbox_items_created], [true, 0]);
    const items = await inboxItems(tenant.accountId, SILENT);
    assert.equal(items.length, 1);
    assert.equal(items[0].dedup_key, `site-platform:webhooks-silent:${tenant.connectionId}`);
  });

  it('a real delivery from the platform in the last 7 days keeps an old OAuth connection quiet; a connection under 7 days old is never silent', async () => {
    const tenant = await oauthTenant(world);
    world.site.sim.addPage(tenant.siteId, { title: 'Fresh page' });
    await world.site.sim.flushWebhooks();
    const delivered = world.site.sim.webhookDeliveries().filter((d) => d.siteId === tenant.siteId && d.triggerType === 'page_created');
    assert.equal(delivered.at(-1)?.status, 200, JSON.stringify(delivered.at(-1)?.response));
    await ageInstall(tenant.connectionId, 30 * 24);
    const young = await oauthTenant(world);
    for (const t of [tenant, young]) {
      const summary = await sweep(t.accountId);
      assert.equal(entryFor(summary, t.connectionId), undefined);
      assert.deepEqual(await inboxItems(t.accountId, SILENT), []);
    }
  });

  it('a site-token connection with no delivery 72 hours after connecting gets one inbox item (deduplicated); one that registered by hand and received a delivery does not', async () => {
    const idle = await newAccount();
    const idleSite = addSite(world.site, 'Idle').id;
    const { body: idleAnswer } = await connectWithSiteToken(world.site, idle, [idleSite]);
    const idleId = idleAnswer.connection?.id ?? idleAnswer.id;
    await ageInstall(idleId, 73);

    const handmade = await newAccount();
    const handSite = addSite(world.site, 'By hand').id;
    const { body: handAnswer } = await connectWithSiteToken(world.site, handmade, [handSite]);
    const handId = handAnswer.connection?.id ?? handAnswer.id;
    assert.equal(handAnswer.webhooks?.skipped, 'site_token_refused', JSON.stringify(handAnswer.webhooks));
    world.site.sim.registerWebhookManually(handSite, { triggerType: 'page_created', url: handAnswer.webhooks.receiver_url });
    world.site.sim.addPage(handSite, { title: 'Hand page' });
    await world.site.sim.flushWebhooks();
    assert.equal(
      world.site.sim
        .webhookDeliveries()
        .filter((d) => d.siteId === handSite)
        .at(-1)?.status,
      200,
    );
    await ageInstall(handId, 73);

    const first = await sweep(idle.accountId);
    const entry = entryFor(first, idleId);
    assert.deepEqual([entry.status, entry.silent, entry.inbox_items_created], ['site_token', true, 1]);
    await sweep(idle.accountId);
    const items = await inboxItems(idle.accountId, NOT_RECEIVED);
    assert.equal(items.length, 1, 'deduplicated across runs');
    assert.ok(!JSON.stringify(items[0].body).includes(idleAnswer.webhooks.receiver_url), 'the receiver URL is shown once, never again');

    const quiet = await sweep(handmade.accountId);
    assert.equal(entryFor(quiet, handId), undefined);
    assert.deepEqual(await inboxItems(handmade.accountId, NOT_RECEIVED), []);
  });

  it('a site-token connection younger than 72 hours gets no item', async () => {
    const account = await newAccount();
    const siteId = addSite(world.site, 'New').id;
    await connectWithSiteToken(world.site, account, [siteId]);
    await sweep(account.accountId);
    assert.deepEqual(await inboxItems(account.accountId, NOT_RECEIVED), []);
  });

  it('a run out of budget stops cleanly and answers partial: true', async () => {
    const tenant = await oauthTenant(world);
    const summary = await sweep(tenant.accountId, { budgetMs: 1, pageSize: 1 });
    assert.equal(summary.partial, true);
  });
});
