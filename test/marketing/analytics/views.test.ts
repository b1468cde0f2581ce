import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startAnalyticsSimulator, type AnalyticsSimulator } from '../../../src/sandbox/analytics';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import type { PrivateApp } from '../../helpers/privateApp';
import { startPrivateApp } from '../../helpers/privateApp';
import { newProjectId } from '../../helpers/projects';
import { bind, contactOf, onPage, submit } from './fixtures';

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

interface SiteProject {
  projectId: string;
  siteId: string;
}

describe('views batch (POST /api/marketing/content/views)', function () {
  this.timeout(60_000);
  let sim: AnalyticsSimulator;
  let app: PrivateApp;
  let owner: TestAccount;

  before(async () => {
    sim = await startAnalyticsSimulator();
    app = await startPrivateApp([], { config: { ANALYTICS_API_URL: sim.url, ANALYTICS_API_KEY: sim.apiKey } });
    owner = await newAccount('Views Co');
  });
  after(async () => {
    await app?.close();
    await sim?.stop();
  });
  afterEach(() => sim.reachable());

  /** A project of the account bound to a platform site (its ledger rows) without a collector site id. */
  async function boundProject(account: TestAccount = owner): Promise<SiteProject> {
    const projectId = await newProjectId(account.accountId);
    const siteId = `site_${randomBytes(4).toString('hex')}`;
    await bind(account.accountId, projectId, siteId);
    return { projectId, siteId };
  }

  /**
   * A bound project with a collector site id (its traffic); `known: false` names a site the collector does not have.
   * `collector` is the simulator that learns the site (the shared one unless given).
   */
  async function siteProject(
    account: TestAccount = owner,
    { known = true, collector = sim }: { known?: boolean; collector?: AnalyticsSimulator } = {},
  ): Promise<SiteProject> {
    const p = await boundProject(account);
    const collectorSite = `${p.siteId}.example.test`;
    const patched = await app.call('PATCH', `/api/projects/${p.projectId}`, {
      token: account.ownerToken,
      body: { analytics_site_id: collectorSite },
    });
    assert.equal(patched.status, 200, patched.text);
    if (known) collector.addSite(collectorSite);
    return p;
  }
  const collectorSiteOf = (p: SiteProject) => `${p.siteId}.example.test`;

  async function lead(accountId: string, p: SiteProject, path: string): Promise<string> {
    // Two days ago: inside the window of closed UTC days; the lead's email is a CRM contact.
    const email = `lead-${randomBytes(3).toString('hex')}@example.test`;
    await contactOf(accountId, email);
    const id = await submit(accountId, p.siteId, { email, at: new Date(Date.now() - 2 * 86_400_000) });
    await onPage(id, path);
    return id;
  }

  const views = (body: unknown, token = owner.ownerToken) => app.call('POST', '/api/marketing/content/views', { token, body });

  it('paths are made site-absolute with query string, fragment and trailing slash removed', async () => {
    const p = await siteProject();
    sim.seed(collectorSiteOf(p), '/blog/heat-pumps', [{ date: yesterday(), pageviews: 40, visitors: 30, form_submits: 3 }]);
    await lead(owner.accountId, p, '/blog/heat-pumps');
    const res = await views({ items: [{ project_id: p.projectId, path: 'https://www.example.test/blog/heat-pumps/?utm_source=x#top' }] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.stats, [{ project_id: p.projectId, path: '/blog/heat-pumps', form_submits: 3, leads: 1, contacts: 1 }]);
    assert.equal(res.body.degraded, false);
  });

  it('a pair with no data is absent, not zero; a pair with data on one side only has real zeros on the other', async () => {
    const p = await siteProject();
    sim.seed(collectorSiteOf(p), '/seen', [{ date: yesterday(), pageviews: 5, visitors: 5, form_submits: 2 }]);
    await lead(owner.accountId, p, '/ledger-only');
    const res = await views({
      items: [
        { project_id: p.projectId, path: '/seen' },
        { project_id: p.projectId, path: '/ledger-only' },
        { project_id: p.projectId, path: '/nothing-here' },
      ],
    });
    assert.equal(res.status, 200, res.text);
    const byPath = Object.fromEntries(res.body.stats.map((s: { path: string }) => [s.path, s]));
    assert.deepEqual(Object.keys(byPath).sort(), ['/ledger-only', '/seen']);
    assert.deepEqual([byPath['/seen'].form_submits, byPath['/seen'].leads], [2, 0]);
    assert.deepEqual([byPath['/ledger-only'].form_submits, byPath['/ledger-only'].leads], [0, 1]);
  });

  it('spam, duplicate and deleted ledger rows are not leads', async () => {
    const p = await siteProject();
    await lead(owner.accountId, p, '/contact');
    for (const flag of [{ spam: true }, { duplicate: true }, { deleted_at: new Date() }]) {
      const id = await lead(owner.accountId, p, '/contact');
      await harness().db('form_submissions').where({ id }).update(flag);
    }
    const res = await views({ items: [{ project_id: p.projectId, path: '/contact' }] });
    assert.equal(res.body.stats[0].leads, 1);
  });

  it('a project the account does not own is omitted; the others are answered', async () => {
    const other = await newAccount('Other views co');
    const theirs = await siteProject(other);
    await lead(other.accountId, theirs, '/pricing');
    const mine = await siteProject();
    await lead(owner.accountId, mine, '/pricing');
    const res = await views({
      items: [
        { project_id: theirs.projectId, path: '/pricing' },
        { project_id: mine.projectId, path: '/pricing' },
      ],
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.stats.map((s: { project_id: string }) => s.project_id),
      [mine.projectId],
    );
  });

  it('one collector query per project, not per path', async () => {
    const [a, b] = [await siteProject(), await siteProject()];
    const before = sim.requests.length;
    const items = [a, b].flatMap((p) => ['/one', '/two', '/three'].map((path) => ({ project_id: p.projectId, path })));
    assert.equal((await views({ items })).status, 200);
    assert.equal(sim.requests.length - before, 2);
  });

  it('the collector unreachable gives 200 with stats empty and degraded true; the ledger figures still answered', async () => {
    const p = await siteProject();
    sim.seed(collectorSiteOf(p), '/down', [{ date: yesterday(), pageviews: 5, visitors: 5, form_submits: 1 }]);
    await lead(owner.accountId, p, '/down');
    sim.unreachable();
    const res = await views({ items: [{ project_id: p.projectId, path: '/down' }] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.stats, []);
    assert.equal(res.body.degraded, true);
    assert.equal(res.body.degraded_reason, 'collector_unreachable');
    assert.deepEqual(res.body.degraded_projects, [{ project_id: p.projectId, reason: 'collector_unreachable' }]);
    assert.deepEqual(res.body.ledger, [{ project_id: p.projectId, path: '/down', leads: 1, contacts: 1 }]);
  });

  it("a views batch keeps each healthy project's stats when another project's collector query fails", async () => {
    const healthy = await siteProject();
    sim.seed(collectorSiteOf(healthy), '/pricing', [{ date: yesterday(), pageviews: 9, visitors: 7, form_submits: 2 }]);
    await lead(owner.accountId, healthy, '/pricing');
    const unknownSite = await siteProject(owner, { known: false });
    await lead(owner.accountId, unknownSite, '/pricing');
    const siteless = await boundProject();
    await lead(owner.accountId, siteless, '/pricing');

    const res = await views({
      items: [siteless, unknownSite, healthy].map((p) => ({ project_id: p.projectId, path: '/pricing' })),
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.stats, [{ project_id: healthy.projectId, path: '/pricing', form_submits: 2, leads: 1, contacts: 1 }]);
    assert.equal(res.body.degraded, true);
    // The collector answers 401 for a site the key cannot see; the same key answered for the healthy project.
    assert.equal(res.body.degraded_reason, 'site_not_found');
    assert.deepEqual(res.body.degraded_projects, [{ project_id: unknownSite.projectId, reason: 'site_not_found' }]);
    assert.deepEqual(res.body.projects_without_site, [siteless.projectId]);
    assert.deepEqual(res.body.ledger, [
      { project_id: siteless.projectId, path: '/pricing', leads: 1, contacts: 1 },
      { project_id: unknownSite.projectId, path: '/pricing', leads: 1, contacts: 1 },
    ]);
  });

  it('each failing project of a views batch is named with its own reason; different reasons make the batch reason mixed', async () => {
    // A key the collector refuses for every site: nothing in the batch was answered, so it is the key.
    const wrongKey = await startPrivateApp([], { config: { ANALYTICS_API_URL: sim.url, ANALYTICS_API_KEY: 'not-the-key' } });
    const proxied = await startAnalyticsSimulator({ unknownSiteStatus: 404 });
    const behindProxy = await startPrivateApp([], { config: { ANALYTICS_API_URL: proxied.url, ANALYTICS_API_KEY: proxied.apiKey } });
    try {
      const p = await siteProject();
      const item = { items: [{ project_id: p.projectId, path: '/' }] };
      const refused = await wrongKey.call('POST', '/api/marketing/content/views', { token: owner.ownerToken, body: item });
      assert.equal(refused.status, 200, refused.text);
      assert.equal(refused.body.degraded_reason, 'collector_auth');
      assert.deepEqual(refused.body.degraded_projects, [{ project_id: p.projectId, reason: 'collector_auth' }]);

      // A collector that says 404 for a site it does not have.
      const notFound = await behindProxy.call('POST', '/api/marketing/content/views', { token: owner.ownerToken, body: item });
      assert.deepEqual(notFound.body.degraded_projects, [{ project_id: p.projectId, reason: 'site_not_found' }]);

      // Two projects failing differently: the batch reason is mixed, each project keeps its own.
      const unknownThere = await siteProject(owner, { known: false, collector: proxied });
      const garbled = await siteProject(owner, { collector: proxied });
      proxied.malformedNext(1);
      const mixed = await behindProxy.call('POST', '/api/marketing/content/views', {
        token: owner.ownerToken,
        body: { items: [unknownThere, garbled].map((x) => ({ project_id: x.projectId, path: '/' })) },
      });
      assert.equal(mixed.body.degraded_reason, 'mixed');
      assert.deepEqual(mixed.body.degraded_projects, [
        { project_id: unknownThere.projectId, reason: 'site_not_found' },
        { project_id: garbled.projectId, reason: 'collector_bad_response' },
      ]);

      sim.unreachable('503');
      const down = await views(item);
      assert.deepEqual(down.body.degraded_projects, [{ project_id: p.projectId, reason: 'collector_unreachable' }]);
      sim.reachable();

      sim.failNext(1, 429);
      const limited = await views(item);
      assert.equal(limited.body.degraded_reason, 'collector_rate_limited');
      assert.deepEqual(limited.body.degraded_projects, [{ project_id: p.projectId, reason: 'collector_rate_limited' }]);
    } finally {
      await wrongKey.close();
      await behindProxy.close();
      await proxied.stop();
    }
  });

  it('no collector configured: degraded with its own reason', async () => {
    const bare = await startPrivateApp([], { config: { ANALYTICS_API_KEY: undefined } });
    try {
      const p = await siteProject();
      const res = await bare.call('POST', '/api/marketing/content/views', {
        token: owner.ownerToken,
        body: { items: [{ project_id: p.projectId, path: '/' }] },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.degraded_reason, 'collector_not_configured');
      assert.deepEqual(res.body.degraded_projects, [{ project_id: p.projectId, reason: 'collector_not_configured' }]);
      const siteless = await boundProject();
      const both = await bare.call('POST', '/api/marketing/content/views', {
        token: owner.ownerToken,
        body: { items: [p, siteless].map((x) => ({ project_id: x.projectId, path: '/' })) },
      });
      assert.deepEqual(both.body.projects_without_site, [siteless.projectId]);
    } finally {
      await bare.close();
    }
  });

  it('views batch: none or more than 200 items, a malformed project id or an unreadable path is 400; nothing is written', async () => {
    const p = await siteProject();
    const many = Array.from({ length: 201 }, (_, i) => ({ project_id: p.projectId, path: `/p${i}` }));
    for (const body of [
      { items: [] },
      { items: many },
      {},
      { items: [{ project_id: 'nope', path: '/' }] },
      { items: [{ project_id: p.projectId, path: 'javascript:alert(1)' }] },
      { items: [{ project_id: p.projectId, path: '/' }], window: '1y' },
    ]) {
      const res = await views(body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
    }
    const ok = await views({ items: many.slice(0, 200) });
    assert.equal(ok.status, 200, ok.text);
  });
});
