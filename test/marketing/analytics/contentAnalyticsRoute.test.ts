import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { insertDailyRows, type DailyRowInsert } from '../../../src/marketing/analytics/dailyStore';
import { startAnalyticsSimulator, type AnalyticsSimulator } from '../../../src/sandbox/analytics';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { newProjectId } from '../../helpers/projects';
import { bind } from './fixtures';

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
const dateOf = (d: Date) => d.toISOString().slice(0, 10);
/** The UTC day `n` days before 2026-03-31 (fixed, so bounds are exact). */
const dayBefore = (n: number) => dateOf(new Date(Date.UTC(2026, 2, 31) - n * 86_400_000));

describe('content analytics rows (GET /api/agent/marketing/content/{id}/analytics)', function () {
  this.timeout(60_000);
  let sim: AnalyticsSimulator;
  let app: PrivateApp;
  let owner: TestAccount;
  let readKey: string;
  let projectId: string;
  const collectorSite = `www-${randomBytes(3).toString('hex')}.acme.test`;

  before(async () => {
    sim = await startAnalyticsSimulator();
    app = await startPrivateApp([], { config: { ANALYTICS_API_URL: sim.url, ANALYTICS_API_KEY: sim.apiKey } });
    owner = await newAccount('Content analytics Co');
    projectId = await newProjectId(owner.accountId, { kind: 'service_hosted', host: 'www.acme.test' });
    await bind(owner.accountId, projectId, `site_${randomBytes(4).toString('hex')}`);
    await harness().db('projects').where({ id: projectId }).update({ analytics_site_id: collectorSite });
    sim.addSite(collectorSite);
    readKey = await newAgentKey(owner.accountId, ['marketing.content:read']);
  });
  after(async () => {
    await app?.close();
    await sim?.stop();
  });

  /** A published item of the project at https://www.acme.test/blog/<slug>. */
  async function publishedItem(slug: string, account: TestAccount = owner, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await app.call('POST', '/api/marketing/content', {
      token: account.ownerToken,
      body: { title: `Title of ${slug}`, slug, status: 'published', ...extra },
    });
    assert.equal(res.status, 201, res.text);
    if (account === owner) {
      await harness()
        .db('content_items')
        .where({ id: res.body.id })
        .update({ cms_link: JSON.stringify({ project_id: projectId, collection_id: 'blog', item_id: null }) });
    }
    return res.body.id;
  }

  /** `count` stored rows for the item, one per day ending `dayBefore(0)`; views of the row `n` days back are 1000 + n. */
  async function storeRows(id: string, count: number, accountId = owner.accountId, extra: (n: number) => object = () => ({})) {
    const rows: DailyRowInsert[] = [];
    for (let n = 0; n < count; n++) {
      rows.push({
        account_id: accountId,
        content_id: id,
        day: dayBefore(n),
        views: 1000 + n,
        unique_views: 500 + n,
        external_analytics: { as_of: dayBefore(n), n, ...extra(n) },
      });
    }
    assert.equal(await insertDailyRows(harness().db, rows), count);
  }

  const rowsOf = async (id: string) =>
    Number((await harness().db('content_analytics_daily').where({ content_id: id }).count({ c: '*' }))[0].c);

  const analytics = (id: string, query = '', token = readKey) =>
    app.call('GET', `/api/agent/marketing/content/${id}/analytics${query ? `?${query}` : ''}`, { token });

  function assert400(res: { status: number; body: any; text: string }, path?: string) {
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'validation_failed', res.text);
    if (path)
      assert.ok(
        res.body.errors.some((e: { path: string }) => e.path === path),
        res.text,
      );
  }

  it('answers the scorecard plus stored rows newest first, 30 a page by default; a page past the last is empty', async () => {
    const id = await publishedItem('paged');
    await storeRows(id, 45);
    const first = await analytics(id);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.length, 30);
    const dates = first.body.data.map((r: { date: string }) => r.date);
    assert.deepEqual(
      dates,
      Array.from({ length: 30 }, (_, n) => dayBefore(n)),
    );
    for (let i = 1; i < dates.length; i++) assert.ok(dates[i - 1] > dates[i], `${dates[i - 1]} > ${dates[i]}`);
    assert.deepEqual(first.body.data[0], {
      date: dayBefore(0),
      views: 1000,
      unique_views: 500,
      external_analytics: { as_of: dayBefore(0), n: 0 },
      computed_at: first.body.data[0].computed_at,
    });
    assert.ok(!Number.isNaN(Date.parse(first.body.data[0].computed_at)));
    assert.deepEqual(first.body.pagination, { page: 1, limit: 30, total: 45, total_pages: 2, has_more: true });
    assert.equal(first.body.scorecard.content_id, id);
    assert.equal(first.body.scorecard.window, '30d');

    const second = await analytics(id, 'page=2');
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(
      second.body.data.map((r: { date: string }) => r.date),
      Array.from({ length: 15 }, (_, n) => dayBefore(30 + n)),
    );
    assert.deepEqual(
      second.body.data.map((r: { views: number }) => r.views),
      Array.from({ length: 15 }, (_, n) => 1030 + n),
    );
    assert.deepEqual(second.body.pagination, { page: 2, limit: 30, total: 45, total_pages: 2, has_more: false });

    const past = await analytics(id, 'page=3');
    assert.equal(past.status, 200, past.text);
    assert.deepEqual(past.body.data, []);
    assert.deepEqual(past.body.pagination, { page: 3, limit: 30, total: 45, total_pages: 2, has_more: false });
  });

  it('the scorecard is the live one over ?window, as the scorecard route answers it', async () => {
    const id = await publishedItem('live-card');
    sim.seed(collectorSite, '/blog/live-card', [
      { date: dateOf(daysAgo(3)), pageviews: 7, visitors: 5, form_submits: 0 },
      { date: dateOf(daysAgo(60)), pageviews: 70, visitors: 50, form_submits: 0 },
    ]);
    await storeRows(id, 2);
    for (const [window, views] of [
      ['7d', 7],
      ['30d', 7],
      ['90d', 77],
      ['all', 77],
    ] as const) {
      const res = await analytics(id, `window=${window}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.scorecard.window, window);
      assert.equal(res.body.scorecard.views, views, window);
      const twin = await app.call('GET', `/api/agent/marketing/content/${id}/scorecard?window=${window}`, { token: readKey });
      assert.equal(twin.status, 200, twin.text);
      assert.deepEqual(res.body.scorecard, twin.body);
    }
    assert400(await analytics(id, 'window=1y'), 'query.window');
  });

  it('limit: default 30, 100 accepted; 101, 0 and a non-number are 400, as is page 0', async () => {
    const id = await publishedItem('limits');
    await storeRows(id, 105);
    const dflt = await analytics(id);
    assert.equal(dflt.body.data.length, 30);
    assert.equal(dflt.body.pagination.limit, 30);
    const max = await analytics(id, 'limit=100');
    assert.equal(max.status, 200, max.text);
    assert.equal(max.body.data.length, 100);
    assert.deepEqual(max.body.pagination, { page: 1, limit: 100, total: 105, total_pages: 2, has_more: true });
    const small = await analytics(id, 'limit=10&page=11');
    assert.deepEqual(
      small.body.data.map((r: { date: string }) => r.date),
      Array.from({ length: 5 }, (_, n) => dayBefore(100 + n)),
    );
    assert.deepEqual(small.body.pagination, { page: 11, limit: 10, total: 105, total_pages: 11, has_more: false });
    for (const bad of ['limit=101', 'limit=0', 'limit=abc', 'limit=1.5', 'limit=-1']) assert400(await analytics(id, bad), 'query.limit');
    for (const bad of ['page=0', 'page=abc', 'page=10001']) assert400(await analytics(id, bad), 'query.page');
  });

  it('from_date and to_date are inclusive bounds of the rows and the total; reversed, malformed or unknown parameters are 400', async () => {
    const id = await publishedItem('dated');
    await storeRows(id, 45);
    const both = await analytics(id, `from_date=${dayBefore(12)}&to_date=${dayBefore(3)}`);
    assert.equal(both.status, 200, both.text);
    assert.deepEqual(
      both.body.data.map((r: { date: string }) => r.date),
      Array.from({ length: 10 }, (_, n) => dayBefore(3 + n)),
    );
    assert.deepEqual(both.body.pagination, { page: 1, limit: 30, total: 10, total_pages: 1, has_more: false });

    const from = await analytics(id, `from_date=${dayBefore(4)}`);
    assert.deepEqual(
      from.body.data.map((r: { date: string }) => r.date),
      [0, 1, 2, 3, 4].map(dayBefore),
    );
    assert.equal(from.body.pagination.total, 5);

    const to = await analytics(id, `to_date=${dayBefore(40)}&limit=3`);
    assert.deepEqual(
      to.body.data.map((r: { date: string }) => r.date),
      [40, 41, 42].map(dayBefore),
    );
    assert.deepEqual(to.body.pagination, { page: 1, limit: 3, total: 5, total_pages: 2, has_more: true });

    const oneDay = await analytics(id, `from_date=${dayBefore(7)}&to_date=${dayBefore(7)}`);
    assert.deepEqual(
      oneDay.body.data.map((r: { date: string }) => r.date),
      [dayBefore(7)],
    );
    assert.equal(oneDay.body.pagination.total, 1);

    const none = await analytics(id, 'from_date=2027-01-01');
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body.data, []);
    assert.deepEqual(none.body.pagination, { page: 1, limit: 30, total: 0, total_pages: 0, has_more: false });

    assert400(await analytics(id, `from_date=${dayBefore(2)}&to_date=${dayBefore(3)}`), 'query.to_date');
    for (const bad of ['2026-13-01', 'yesterday', '2026-02-30', '2026-3-1', '2026-03-01T00:00:00Z']) {
      assert400(await analytics(id, `from_date=${encodeURIComponent(bad)}`), 'query.from_date');
      assert400(await analytics(id, `to_date=${encodeURIComponent(bad)}`), 'query.to_date');
    }
    const unknown = await analytics(id, 'foo=1');
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.body.code, 'validation_failed');
  });

  it('content_summary carries the id, title, status, content type, target keyword, published_at, url and url_source of the item', async () => {
    const id = await publishedItem('summary-item', owner, { target_keyword: 'heat pump summary' });
    const res = await analytics(id);
    assert.equal(res.status, 200, res.text);
    const item = await app.call('GET', `/api/agent/marketing/content/${id}`, { token: readKey });
    assert.equal(item.status, 200, item.text);
    assert.deepEqual(res.body.content_summary, {
      id,
      title: 'Title of summary-item',
      status: 'published',
      content_type: item.body.content_type,
      target_keyword: 'heat pump summary',
      published_at: item.body.published_at,
      url: 'https://www.acme.test/blog/summary-item',
      url_source: 'service_hosted',
    });
    assert.equal(item.body.url, res.body.content_summary.url);
    assert.equal(item.body.url_source, res.body.content_summary.url_source);
    assert.ok(res.body.content_summary.published_at, 'a published item has published_at');

    const draft = await app.call('POST', '/api/marketing/content', { token: owner.ownerToken, body: { title: 'Draft only' } });
    const d = await analytics(draft.body.id);
    assert.equal(d.status, 200, d.text);
    assert.deepEqual(
      [d.body.content_summary.status, d.body.content_summary.url, d.body.content_summary.url_source, d.body.content_summary.target_keyword],
      ['draft', null, null, null],
    );
    assert.equal(d.body.scorecard.page, null);
  });

  it("the scorecard's last_stored is the newest row's date and computed_at and its rank.keywords come from that row; no rows: null and empty", async () => {
    const id = await publishedItem('stored-rank', owner, { target_keyword: 'heat pumps' });
    const bare = await analytics(id);
    assert.equal(bare.status, 200, bare.text);
    assert.equal(bare.body.scorecard.last_stored, null);
    assert.deepEqual(bare.body.scorecard.rank, { keywords: [] });
    assert.deepEqual(bare.body.data, []);
    assert.deepEqual(bare.body.pagination, { page: 1, limit: 30, total: 0, total_pages: 0, has_more: false });

    const newestKeywords = [{ keyword: 'heat pumps', position: 3, measured_at: '2026-03-30T02:00:00.000Z' }];
    await storeRows(id, 3, owner.accountId, (n) => ({
      rank:
        n === 0
          ? { keywords: newestKeywords, note: 'rank measured from stored row' }
          : { keywords: [{ keyword: 'heat pumps', position: 9 + n, measured_at: '2026-03-01T02:00:00.000Z' }], note: null },
    }));
    const stamps = ['2026-03-31T01:02:03.000Z', '2026-03-30T01:02:03.000Z', '2026-03-29T01:02:03.000Z'];
    for (let n = 0; n < 3; n++) {
      await harness()
        .db('content_analytics_daily')
        .where({ content_id: id, day: dayBefore(n) })
        .update({ computed_at: new Date(stamps[n]) });
    }
    const res = await analytics(id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.scorecard.last_stored, { date: dayBefore(0), computed_at: stamps[0] });
    assert.deepEqual(res.body.scorecard.rank, { keywords: newestKeywords });
    assert.ok(res.body.scorecard.notes.includes('rank measured from stored row'), res.text);
    assert.ok(!res.body.scorecard.notes.some((n: string) => n.startsWith('rank.keywords is empty')), res.text);
    assert.deepEqual(
      res.body.data.map((r: { date: string; computed_at: string }) => [r.date, r.computed_at]),
      [0, 1, 2].map((n) => [dayBefore(n), stamps[n]]),
    );
    assert.deepEqual(res.body.data[1].external_analytics.rank.keywords[0].position, 10);

    // The newest stored row wins even when a filter leaves it out of `data`.
    const filtered = await analytics(id, `to_date=${dayBefore(2)}`);
    assert.deepEqual(
      filtered.body.data.map((r: { date: string }) => r.date),
      [dayBefore(2)],
    );
    assert.deepEqual(filtered.body.scorecard.last_stored, { date: dayBefore(0), computed_at: stamps[0] });
  });

  it("another account's item and an unknown id are 404; a key without marketing.content:read is 403; the dashboard path is no route", async () => {
    const id = await publishedItem('guarded');
    await storeRows(id, 2);
    const other = await newAccount('Other analytics Co');
    const otherId = await publishedItem('theirs', other);
    await storeRows(otherId, 2, other.accountId);

    const theirs = await analytics(otherId);
    assert.equal(theirs.status, 404, theirs.text);
    assert.equal(theirs.body.code, 'content_not_found');
    assert.equal(theirs.body.data, undefined);
    const byOther = await analytics(id, '', await newAgentKey(other.accountId, ['marketing.content:read']));
    assert.equal(byOther.status, 404, byOther.text);
    const random = await analytics(randomUUID());
    assert.equal(random.status, 404, random.text);
    assert.equal(random.body.code, 'content_not_found');

    const noRead = await analytics(id, '', await newAgentKey(owner.accountId, ['crm:read']));
    assert.equal(noRead.status, 403, noRead.text);
    assert.equal(noRead.body.data, undefined);
    const anonymous = await app.call('GET', `/api/agent/marketing/content/${id}/analytics`);
    assert.equal(anonymous.status, 401, anonymous.text);

    const dashboard = await app.call('GET', `/api/marketing/content/${id}/analytics`, { token: owner.ownerToken });
    assert.equal(dashboard.status, 404, dashboard.text);
    assert.equal(dashboard.body.code, 'route_not_found');
    const post = await app.call('POST', `/api/agent/marketing/content/${id}/analytics`, { token: readKey, body: {} });
    assert.equal(post.status, 405, post.text);
  });

  it('writes nothing: the stored rows of the item are unchanged after reads', async () => {
    const id = await publishedItem('read-only');
    sim.seed(collectorSite, '/blog/read-only', [{ date: dateOf(daysAgo(2)), pageviews: 3, visitors: 2, form_submits: 0 }]);
    await storeRows(id, 4);
    const before = await harness().db('content_analytics_daily').where({ content_id: id }).orderBy('day').select();
    for (const q of ['', 'window=all', 'page=2', 'limit=100', `from_date=${dayBefore(2)}`, 'limit=0']) await analytics(id, q);
    await app.call('GET', `/api/agent/marketing/content/${id}/scorecard`, { token: readKey });
    assert.equal(await rowsOf(id), 4);
    assert.deepEqual(await harness().db('content_analytics_daily').where({ content_id: id }).orderBy('day').select(), before);

    const empty = await publishedItem('read-only-empty');
    for (const q of ['', 'window=7d']) assert.equal((await analytics(empty, q)).status, 200);
    assert.equal(await rowsOf(empty), 0);
  });
});
