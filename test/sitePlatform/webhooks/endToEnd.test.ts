import assert from 'node:assert/strict';
import { startSitePlatformSimulator, type SitePlatformSimulator } from '../../../src/sandbox/sitePlatform';
import { harness } from '../../helpers/harness';
import { ALL_SCOPES, connectWithSiteToken } from '../connections/fixtures';
import { connectOAuth, oauthAccount, TRIGGERS } from './registrationFixtures';
import { bindProject, eventually, startReceiverWorld, type ReceiverWorld } from './receiverKit';

/**
 * The whole path with nothing crafted by the test: a connect registers the receiver on the simulator, the simulator
 * sends each trigger's delivery as the platform does (signed for OAuth, unsigned for a hand-made site-token
 * registration), the receiver records it and the relay hands it to the fan-out workflow.
 */
describe('site platform webhooks end to end: real deliveries from the simulator', () => {
  let sim: SitePlatformSimulator;
  let rw: ReceiverWorld;
  before(async () => {
    sim = await startSitePlatformSimulator({ webhookRetryIntervalMs: 50 });
    rw = await startReceiverWorld({ sim, selfPublicUrl: true });
    // The service-wide OAuth client the world configures: connects use it, and it signs their deliveries.
    sim.addApp({ clientId: rw.config.SITE_PLATFORM_CLIENT_ID!, clientSecret: rw.serviceSecret });
  });
  after(async () => {
    await rw.close();
    await sim.stop();
  });

  const events = (accountId: string) => harness().db('site_platform_inbound_events').where({ account_id: accountId }).orderBy('seq');

  async function api(token: string, path: string, method = 'GET', body?: unknown) {
    const res = await fetch(`${sim.baseUrl}/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
    return res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>);
  }

  it('each of the 11 triggers, delivered by the simulator to the URL an OAuth connect registered, is verified by HMAC, recorded once and fanned out', async () => {
    const { account, sites } = await oauthAccount(rw.world);
    const site = sites[0];
    const connect = await connectOAuth(rw.world, account);
    assert.equal(connect.webhooks.registered[0].created, 11, JSON.stringify(connect.webhooks));
    const projectId = await bindProject(account.accountId, site.id, 'platform_hosted');

    const token = sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id] });
    const blog = sim.addCollection(site.id, { displayName: 'Posts', singularName: 'Post' });
    const home = sim.addPage(site.id, { title: 'Home', slug: '' });
    const item = await api(token, `/collections/${blog.id}/items`, 'POST', { fieldData: { name: 'Launch', slug: 'launch' } });
    const itemPath = `/collections/${blog.id}/items/${String(item.id)}`;
    await api(token, itemPath, 'PATCH', { fieldData: { name: 'Launch day' } });
    await api(token, `/collections/${blog.id}/items/publish`, 'POST', { itemIds: [item.id] });
    await api(token, `${itemPath}/live`, 'DELETE');
    await api(token, itemPath, 'DELETE');
    await api(token, `/pages/${home.id}`, 'PUT', { seo: { title: 'Home — new' } });
    await api(token, `/sites/${site.id}/publish`, 'POST', { publishToWebflowSubdomain: true });
    const about = sim.addPage(site.id, { title: 'About', slug: 'about' });
    sim.deletePage(site.id, about.id);
    const form = sim.addForm(site.id, { displayName: 'Contact', pageId: home.id, fields: ['Name', 'Email'] });
    const { submission } = sim.submitForm(site.id, form.id, { Name: 'Ada Lovelace', Email: 'ada@example.test' });
    sim.addCommentThread(site.id, { pageId: home.id, content: 'Typo in the hero' });
    await sim.flushWebhooks();

    const attempts = sim.webhookDeliveries().filter((d) => d.url.includes(connect.connection.id));
    assert.deepEqual([...new Set(attempts.map((d) => d.triggerType))].sort(), [...TRIGGERS].sort());
    assert.ok(
      attempts.every((d) => d.signed && d.attempt === 1 && d.status === 200),
      JSON.stringify(attempts.map((d) => [d.triggerType, d.attempt, d.status])),
    );

    const recorded = await events(account.accountId);
    assert.deepEqual([...new Set(recorded.map((e) => e.trigger_type))].sort(), [...TRIGGERS].sort());
    assert.ok(recorded.every((e) => e.verified && e.verification === 'hmac' && e.site_id === site.id));
    assert.equal(recorded.length, attempts.length, 'one event row per delivery');

    const done = await eventually(
      () => events(account.accountId),
      (rows) => rows.every((e) => e.fanned_out_at),
      30_000,
      'every event to be fanned out',
    );
    const publish = done.find((e) => e.trigger_type === 'site_publish')!;
    assert.ok(JSON.stringify(publish.fan_out.projects).includes(projectId), 'the bound project is reached');
    assert.equal(publish.fan_out.over_cap, 0);
    const indexed = await harness().db('site_platform_page_index').where({ account_id: account.accountId, site_id: site.id });
    assert.ok(
      indexed.some((p) => p.page_id === home.id && p.deleted_at === null),
      'the external binding indexed the published site',
    );
    assert.ok(
      indexed.some((p) => p.page_id === about.id && p.deleted_at !== null),
      'the deleted page is marked deleted',
    );

    const triggers = await harness().db('workflow_trigger_outbox').where({ account_id: account.accountId }).select('trigger');
    assert.deepEqual([...new Set(triggers.map((t) => t.trigger))].sort(), [
      'form_submitted',
      'site_platform.cms_item.changed',
      'site_platform.cms_item.created',
      'site_platform.cms_item.deleted',
      'site_platform.cms_item.published',
      'site_platform.cms_item.unpublished',
      'site_platform.comment.created',
      'site_platform.page.created',
      'site_platform.page.deleted',
      'site_platform.page.metadata_updated',
      'site_platform.site.published',
    ]);
    assert.equal(triggers.length, recorded.length, 'one workflow trigger per delivery');

    const ledger = await harness().db('form_submissions').where({ account_id: account.accountId });
    assert.deepEqual(
      ledger.map((r) => [r.idempotency_key, r.form_label, r.page_path]),
      [[`platform:${account.accountId}:${submission.id}`, 'Contact', '/']],
    );
    const processed = await eventually(
      () => harness().db('form_submissions').where({ account_id: account.accountId }).first(),
      (row) => Boolean(row?.contact_id),
      20_000,
      'the submission to reach the CRM',
    );
    const contact = await harness().db('crm_contacts').where({ account_id: account.accountId, id: processed.contact_id }).first();
    assert.equal(contact.email, 'ada@example.test');
  });

  it('the platform redelivering a delivery verbatim is a replay: 200 replay true, no second event row', async () => {
    const { account, sites } = await oauthAccount(rw.world);
    const connect = await connectOAuth(rw.world, account);
    const form = sim.addForm(sites[0].id, {
      displayName: 'Quote',
      pageId: sim.addPage(sites[0].id, { title: 'Quote' }).id,
      fields: ['Email'],
    });
    sim.submitForm(sites[0].id, form.id, { Email: 'quote@example.test' });
    await sim.flushWebhooks();
    const log = sim.webhookDeliveries();
    const first = log.findIndex((d) => d.url.includes(connect.connection.id) && d.triggerType === 'form_submission');
    assert.ok(first >= 0);
    sim.redeliver(first, { resign: true });
    await sim.flushWebhooks();
    const again = sim.webhookDeliveries().at(-1)!;
    assert.equal(again.status, 200);
    assert.deepEqual(JSON.parse(again.response!), { received: true, replay: true });
    assert.equal((await events(account.accountId)).filter((e) => e.trigger_type === 'form_submission').length, 1);
    assert.equal((await harness().db('form_submissions').where({ account_id: account.accountId })).length, 1);
  });

  it('a site-token connection: registration refused, the receiver URL shown once and registered by hand, deliveries unsigned and recorded as url_token', async () => {
    const { account, sites } = await oauthAccount(rw.world);
    const { body } = await connectWithSiteToken(rw.world, account, [sites[0].id]);
    assert.equal(body.webhooks.skipped, 'site_token_refused');
    const url: string = body.webhooks.receiver_url;
    assert.ok(url.startsWith(`${rw.world.app.baseUrl}/api/webhooks/site-platform/${body.connection.id}/`));
    const again = await rw.world.app.call('GET', `/api/site-platform/connections/${body.connection.id}`, { token: account.ownerToken });
    assert.equal(again.status, 200, again.text);
    assert.ok(!again.text.includes(url.split('/').at(-1)!), `the URL token is never answered again: ${again.text}`);

    sim.registerWebhookManually(sites[0].id, { triggerType: 'form_submission', url });
    const form = sim.addForm(sites[0].id, {
      displayName: 'Hello',
      pageId: sim.addPage(sites[0].id, { title: 'Hi' }).id,
      fields: ['Email'],
    });
    sim.submitForm(sites[0].id, form.id, { Email: 'hello@example.test' });
    await sim.flushWebhooks();
    const mine = sim.webhookDeliveries().filter((d) => d.url === url);
    assert.deepEqual(
      mine.map((d) => [d.signed, d.status]),
      [[false, 200]],
    );
    const rows = await events(account.accountId);
    assert.deepEqual(
      rows.map((e) => [e.trigger_type, e.verified, e.verification]),
      [['form_submission', true, 'url_token']],
    );
  });
});
