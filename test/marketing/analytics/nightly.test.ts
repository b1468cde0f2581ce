import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../../src/config';
import { FILL_DAYS, fillProjectDays } from '../../../src/marketing/analytics/nightly';
import { scorecard } from '../../../src/marketing/analytics/scorecard';
import { startAnalyticsSimulator, type AnalyticsSimulator } from '../../../src/sandbox/analytics';
import { startSearchSimulator, type SearchSimulator } from '../../../src/sandbox/search';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { bind, linkedItem, onPage, submit, todayUtc } from './fixtures';

const DAY_MS = 86_400_000;
const TODAY = todayUtc();
/** `n` days before today (UTC), as a date. */
const day = (n: number) => new Date(TODAY - n * DAY_MS).toISOString().slice(0, 10);
/** A night run `n` days before today's, at 02:15 UTC. */
const nightOf = (n: number) => new Date(TODAY - n * DAY_MS + (2 * 60 + 15) * 60_000);

interface StoredRow {
  day: string;
  views: number;
  unique_views: number;
  external_analytics: Record<string, any>;
  computed_at: Date;
}

describe('nightly analytics rows (content-analytics-daily)', function () {
  this.timeout(60_000);
  let sim: AnalyticsSimulator;
  let search: SearchSimulator;
  let deps: { db: ReturnType<typeof harness>['db']; config: Config };
  let owner: TestAccount;
  let projectId: string;
  let siteId: string;
  let collectorSite: string;

  before(async () => {
    sim = await startAnalyticsSimulator();
    search = await startSearchSimulator();
    deps = {
      db: harness().db,
      config: {
        ...harness().deps.config,
        ANALYTICS_API_URL: sim.url,
        ANALYTICS_API_KEY: sim.apiKey,
        SEARCH_API_URL: search.url,
        SEARCH_API_KEY: search.apiKey,
        SEARCH_MONTHLY_CAP: 1000,
        ANALYTICS_RANK_EVERY_DAYS: 7,
      },
    };
  });
  after(async () => {
    await sim?.stop();
    await search?.stop();
  });
  beforeEach(async () => {
    sim.reachable();
    owner = await newAccount('Nightly Co');
    projectId = await newProjectId(owner.accountId, { kind: 'service_hosted', host: 'www.nightly.test' });
    siteId = `site_${randomBytes(4).toString('hex')}`;
    await bind(owner.accountId, projectId, siteId);
    collectorSite = `www-${randomBytes(3).toString('hex')}.nightly.test`;
    await harness().db('projects').where({ id: projectId }).update({ analytics_site_id: collectorSite });
    sim.addSite(collectorSite);
  });

  const item = (slug: string, createdDaysAgo: number, keyword?: string) =>
    linkedItem(owner.ownerToken, projectId, slug, createdDaysAgo, keyword);

  const fill = (now: Date, maxDays = 30, config: Partial<Config> = {}) =>
    fillProjectDays({ ...deps, config: { ...deps.config, ...config } }, { accountId: owner.accountId, projectId, maxDays }, now);
  const rowsOf = async (contentId: string): Promise<StoredRow[]> =>
    harness()
      .db('content_analytics_daily')
      .where({ account_id: owner.accountId, content_id: contentId })
      .orderBy('day')
      .select(harness().db.raw(`to_char(day, 'YYYY-MM-DD') as day`), 'views', 'unique_views', 'external_analytics', 'computed_at');

  it('one row per item per closed UTC day: that day’s views and unique views, and the rolling 30-day scorecard as of that night', async () => {
    const id = await item('heat-pumps', 3);
    const path = '/blog/heat-pumps';
    sim.seed(collectorSite, path, [
      { date: day(12), pageviews: 100, visitors: 70, form_submits: 2 },
      { date: day(3), pageviews: 10, visitors: 8, form_submits: 0 },
      { date: day(2), pageviews: 20, visitors: 15, form_submits: 1 },
      { date: day(1), pageviews: 30, visitors: 25, form_submits: 3 },
    ]);
    await onPage(await submit(owner.accountId, siteId, { at: new Date(TODAY - 2 * DAY_MS + 3_600_000) }), path);

    const result = await fill(nightOf(0));
    assert.equal(result.status, 'stored');
    assert.deepEqual(result.days, [day(3), day(2), day(1)]);
    assert.equal(result.rows_stored, 3);
    assert.equal(result.remaining_days, 0);
    const rows = await rowsOf(id);
    assert.deepEqual(
      rows.map((r) => [r.day, r.views, r.unique_views]),
      [
        [day(3), 10, 8],
        [day(2), 20, 15],
        [day(1), 30, 25],
      ],
    );
    // As of each night: the 30 closed days ending that day (day 12 is in every window; later days only from theirs on).
    assert.deepEqual(
      rows.map((r) => [
        r.external_analytics.as_of,
        r.external_analytics.views,
        r.external_analytics.form_submits,
        r.external_analytics.leads,
      ]),
      [
        [day(3), 110, 2, 0],
        [day(2), 130, 3, 1],
        [day(1), 160, 6, 1],
      ],
    );
    assert.equal(rows[2].external_analytics.window, '30d');
    assert.deepEqual(rows[2].external_analytics.page, { project_id: projectId, path, url: `https://www.nightly.test${path}` });

    // The newest row's scorecard is the live 30-day scorecard of the same night; the live one names it as last_stored.
    const live = await scorecard(deps, owner.accountId, id, '30d', nightOf(0));
    for (const field of ['views', 'visitors', 'form_submits', 'leads', 'contacts', 'attributed_contacts', 'lead_rate'] as const) {
      assert.deepEqual(rows[2].external_analytics[field], live[field], field);
    }
    assert.deepEqual(live.last_stored, { date: day(1), computed_at: rows[2].computed_at.toISOString() });
  });

  it('idempotent per item and day: a second run stores nothing and changes no row', async () => {
    const id = await item('idempotent', 2);
    sim.seed(collectorSite, '/blog/idempotent', [{ date: day(1), pageviews: 5, visitors: 4, form_submits: 0 }]);
    assert.equal((await fill(nightOf(0))).rows_stored, 2);
    const first = await rowsOf(id);
    sim.seed(collectorSite, '/blog/idempotent', [{ date: day(1), pageviews: 999, visitors: 999, form_submits: 0 }]);
    const again = await fill(nightOf(0));
    assert.deepEqual([again.status, again.rows_stored, again.days], ['up_to_date', 0, []]);
    assert.deepEqual(await rowsOf(id), first);
  });

  it('days missed while the collector was down are filled on the next run', async () => {
    const id = await item('outage', 5);
    sim.seed(
      collectorSite,
      '/blog/outage',
      [5, 4, 3, 2, 1].map((n) => ({ date: day(n), pageviews: n * 10, visitors: n, form_submits: 0 })),
    );
    assert.equal((await fill(nightOf(2))).rows_stored, 3); // days 5, 4, 3
    sim.unreachable('503');
    const down = await fill(nightOf(1));
    assert.equal(down.status, 'collector_unavailable');
    assert.equal(down.code, 'analytics_unavailable');
    assert.equal(down.rows_stored, 0);
    assert.equal(down.remaining_days, 1);
    sim.reachable();
    const back = await fill(nightOf(0));
    assert.deepEqual([back.status, back.days], ['stored', [day(2), day(1)]]);
    assert.deepEqual(
      (await rowsOf(id)).map((r) => [r.day, r.views]),
      [5, 4, 3, 2, 1].map((n) => [day(n), n * 10]),
    );
  });

  it('a day older than 30 days that was never stored stays missing; no day before the item existed gets a row', async () => {
    const old = await item('old-post', 90);
    const fresh = await item('fresh-post', 0);
    const result = await fill(nightOf(0));
    assert.equal(result.items, 2);
    const rows = await rowsOf(old);
    assert.equal(rows.length, FILL_DAYS);
    assert.deepEqual([rows[0].day, rows.at(-1)!.day], [day(FILL_DAYS), day(1)]);
    assert.deepEqual(await rowsOf(fresh), [], 'created today: no closed day yet');
    assert.ok(
      rows.every((r) => r.views === 0 && r.unique_views === 0),
      'no traffic seeded: real zeros, the collector answered',
    );
  });

  it('a call stores at most maxDays days, oldest first, and reports the days remaining', async () => {
    const id = await item('paced', 10);
    const first = await fill(nightOf(0), 4);
    assert.deepEqual([first.days, first.remaining_days], [[day(10), day(9), day(8), day(7)], 6]);
    const second = await fill(nightOf(0), 4);
    assert.deepEqual([second.days.length, second.remaining_days], [4, 2]);
    const third = await fill(nightOf(0), 4);
    assert.deepEqual([third.days, third.remaining_days], [[day(2), day(1)], 0]);
    assert.equal((await rowsOf(id)).length, 10);
  });

  it('no collector, no rows: a project without a collector site id, or no collector configured', async () => {
    const id = await item('no-site', 3);
    assert.equal((await fill(nightOf(0), 30, { ANALYTICS_API_KEY: undefined })).status, 'collector_not_configured');
    await harness().db('projects').where({ id: projectId }).update({ analytics_site_id: null });
    assert.equal((await fill(nightOf(0))).status, 'no_collector_site');
    assert.deepEqual(await rowsOf(id), []);
  });

  it('rank.keywords: the position for the target keyword, one search call within the monthly cap, carried forward until due', async () => {
    const keyword = `heat pump sizing ${randomBytes(2).toString('hex')}`;
    const id = await item('sizing', 2, keyword);
    search.setResults(keyword, [
      { title: 'Other', url: 'https://other.example/heat-pumps' },
      { title: 'Ours', url: 'https://nightly.test/blog/sizing/?utm_source=x' },
    ]);
    const callsBefore = search.calls.length;
    const first = await fill(nightOf(0));
    assert.equal(first.rank_measured, 1);
    assert.equal(search.calls.length, callsBefore + 1, 'one search call, for the newest day only');
    const rows = await rowsOf(id);
    assert.deepEqual(rows.at(-1)!.external_analytics.rank.keywords, [{ keyword, position: 2, measured_at: nightOf(0).toISOString() }]);
    const live = await scorecard(deps, owner.accountId, id, '30d', nightOf(0));
    assert.deepEqual(live.rank.keywords, rows.at(-1)!.external_analytics.rank.keywords);

    // The next night: not due yet (every 7 days), so the measurement is carried forward without a call.
    await fill(nightOf(-1));
    assert.equal(search.calls.length, callsBefore + 1);
    assert.deepEqual((await rowsOf(id)).at(-1)!.external_analytics.rank.keywords, rows.at(-1)!.external_analytics.rank.keywords);

    // Due a week later, but the month's cap is spent: the old measurement stays, with a note, and no call is made.
    const capped = await fill(nightOf(-8), 30, { SEARCH_MONTHLY_CAP: 0 });
    assert.equal(capped.rank_measured, 0);
    assert.equal(search.calls.length, callsBefore + 1);
    const newest = (await rowsOf(id)).at(-1)!;
    assert.equal(newest.external_analytics.rank.keywords[0].position, 2);
    assert.match(newest.external_analytics.rank.note, /monthly web-search cap of 0 calls is reached/);
  });

  it('an item without a target keyword has no rank and costs no search call', async () => {
    const id = await item('no-keyword', 1);
    const callsBefore = search.calls.length;
    await fill(nightOf(0));
    assert.equal(search.calls.length, callsBefore);
    assert.deepEqual((await rowsOf(id))[0].external_analytics.rank, {
      keywords: [],
      note: 'rank is not measured: the item has no target keyword',
    });
  });
});
