import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startAnalyticsSimulator, type AnalyticsSimulator } from '../../../src/sandbox/analytics';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { newProjectId } from '../../helpers/projects';
import { bind, contactOf, deal, linkedItem, onPage, submit } from './fixtures';

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
const dateOf = (d: Date) => d.toISOString().slice(0, 10);

describe('scorecard (GET /api/marketing/content/{id}/scorecard)', function () {
  this.timeout(60_000);
  let sim: AnalyticsSimulator;
  let app: PrivateApp;
  let owner: TestAccount;
  let projectId: string;
  let siteId: string;
  const collectorSite = `www-${randomBytes(3).toString('hex')}.acme.test`;

  before(async () => {
    sim = await startAnalyticsSimulator();
    app = await startPrivateApp([], { config: { ANALYTICS_API_URL: sim.url, ANALYTICS_API_KEY: sim.apiKey } });
    owner = await newAccount('Scorecard Co');
    projectId = await newProjectId(owner.accountId, { kind: 'service_hosted', host: 'www.acme.test' });
    siteId = `site_${randomBytes(4).toString('hex')}`;
    await bind(owner.accountId, projectId, siteId);
    await harness().db('projects').where({ id: projectId }).update({ analytics_site_id: collectorSite });
    sim.addSite(collectorSite);
  });
  after(async () => {
    await app?.close();
    await sim?.stop();
  });
  afterEach(() => sim.reachable());

  /** A published item of the project at https://www.acme.test/blog/<slug>. */
  const publishedItem = (slug: string) => linkedItem(owner.ownerToken, projectId, slug);

  async function leadOn(path: string, at: Date, email = `lead-${randomBytes(3).toString('hex')}@example.test`) {
    const contactId = await contactOf(owner.accountId, email);
    const id = await submit(owner.accountId, siteId, { email, at });
    await onPage(id, path);
    return contactId;
  }

  const card = (id: string, window?: string, token = owner.ownerToken) =>
    app.call('GET', `/api/marketing/content/${id}/scorecard${window ? `?window=${window}` : ''}`, { token });

  it('measures the item page: views and visitors from the collector, leads from the ledger, attribution and deals, lead_rate', async () => {
    const id = await publishedItem('heat-pumps');
    sim.seed(collectorSite, '/blog/heat-pumps', [
      { date: dateOf(daysAgo(2)), pageviews: 120, visitors: 80, form_submits: 4 },
      { date: dateOf(daysAgo(45)), pageviews: 500, visitors: 400, form_submits: 9 },
    ]);
    const contact = await leadOn('/blog/heat-pumps', daysAgo(2));
    await leadOn('/blog/heat-pumps', daysAgo(3));
    await deal(owner.accountId, contact, 250000, 'EUR', { won: true });
    const res = await card(id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.page, { project_id: projectId, path: '/blog/heat-pumps', url: 'https://www.acme.test/blog/heat-pumps' });
    assert.deepEqual(
      [res.body.views, res.body.visitors, res.body.form_submits, res.body.leads, res.body.contacts, res.body.attributed_contacts],
      [120, 80, 4, 2, 2, 2],
    );
    assert.equal(res.body.deals.won, 1);
    assert.deepEqual(res.body.deals.revenue, [{ currency: 'EUR', amount_minor: 250000 }]);
    assert.equal(res.body.lead_rate, 0.025);
    assert.equal(res.body.social, null);
    assert.equal(res.body.last_stored, null);
    assert.equal(res.body.degraded, false);
  });

  it('windows: 7d, 30d (default), 90d and all count different days', async () => {
    const id = await publishedItem('windows');
    sim.seed(collectorSite, '/blog/windows', [
      { date: dateOf(daysAgo(3)), pageviews: 1, visitors: 1, form_submits: 0 },
      { date: dateOf(daysAgo(20)), pageviews: 10, visitors: 10, form_submits: 0 },
      { date: dateOf(daysAgo(60)), pageviews: 100, visitors: 100, form_submits: 0 },
      { date: dateOf(daysAgo(200)), pageviews: 1000, visitors: 1000, form_submits: 0 },
    ]);
    const views: Record<string, number> = {};
    for (const w of ['7d', '30d', '90d', 'all']) views[w] = (await card(id, w)).body.views;
    assert.deepEqual(views, { '7d': 1, '30d': 11, '90d': 111, all: 1111 });
    assert.equal((await card(id)).body.window, '30d');
    assert.equal((await card(id, '1y')).status, 400);
  });

  it('the collector unreachable: degraded, its figures null, the ledger figures still answered', async () => {
    const id = await publishedItem('down');
    await leadOn('/blog/down', daysAgo(2));
    sim.unreachable();
    const res = await card(id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.degraded, true);
    assert.deepEqual([res.body.views, res.body.visitors, res.body.form_submits, res.body.lead_rate], [null, null, null, null]);
    assert.equal(res.body.leads, 1);
  });

  it('an item with no URL has a null page and null figures, with a note', async () => {
    const res = await app.call('POST', '/api/marketing/content', { token: owner.ownerToken, body: { title: 'Draft only' } });
    const card0 = await card(res.body.id);
    assert.equal(card0.status, 200, card0.text);
    assert.equal(card0.body.page, null);
    assert.equal(card0.body.views, null);
    assert.ok(card0.body.notes.some((n: string) => n.startsWith('no figures')));
  });

  it("another account's item is 404; the agent twin needs marketing.content:read", async () => {
    const id = await publishedItem('twin');
    const other = await newAccount('Other scorecard co');
    assert.equal((await card(id, undefined, other.ownerToken)).status, 404);
    const key = await newAgentKey(owner.accountId, ['marketing.content:read']);
    const twin = await app.call('GET', `/api/agent/marketing/content/${id}/scorecard`, { token: key });
    assert.equal(twin.status, 200, twin.text);
    const noRead = await newAgentKey(owner.accountId, ['crm:read']);
    assert.equal((await app.call('GET', `/api/agent/marketing/content/${id}/scorecard`, { token: noRead })).status, 403);
  });
});
