import assert from 'node:assert/strict';
import { daysEnding, startAnalyticsSimulator, type AnalyticsSimulator } from '../../../src/sandbox/analytics';

const NOW = new Date('2026-11-27T10:00:00Z');
const SITE = 'blog.example.test';

describe('analytics simulator (Plausible Stats API v2 on loopback)', () => {
  let sim: AnalyticsSimulator;
  const query = async (body: unknown, key: string | null = sim.apiKey) => {
    const res = await fetch(`${sim.url}/api/v2/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const seedWeek = () => {
    for (const [i, date] of daysEnding('2026-11-26', 7).entries()) {
      sim.seed(SITE, '/a', [{ date, pageviews: 10 + i, visitors: 5, form_submits: i % 2 }]);
      sim.seed(SITE, '/b', [{ date, pageviews: 1, visitors: 1, form_submits: 0 }]);
    }
    // Today: outside every "Nd" range, inside "day" and "all".
    sim.seed(SITE, '/a', [{ date: '2026-11-27', pageviews: 1000, visitors: 900, form_submits: 50 }]);
  };
  before(async () => {
    sim = await startAnalyticsSimulator({ now: () => NOW });
  });
  beforeEach(seedWeek);
  afterEach(() => sim.reset());
  after(() => sim.stop());

  it('answers an aggregate {results:[{metrics,dimensions}], meta, query}; "7d" is the 7 days before today', async () => {
    const res = await query({ site_id: SITE, metrics: ['pageviews', 'visitors'], date_range: '7d' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.results, [{ metrics: [10 + 11 + 12 + 13 + 14 + 15 + 16 + 7, 42], dimensions: [] }]);
    assert.deepEqual(res.body.query.date_range, ['2026-11-20T00:00:00+00:00', '2026-11-26T23:59:59+00:00']);
    assert.equal(res.body.query.site_id, SITE);
    assert.deepEqual(res.body.meta, {});
  });

  it('groups by event:page with an is filter, ordered by the first metric descending; a page without data is absent', async () => {
    const res = await query({
      site_id: SITE,
      metrics: ['visitors', 'pageviews'],
      date_range: ['2026-11-20', '2026-11-21'],
      dimensions: ['event:page'],
      filters: [['is', 'event:page', ['/a', '/b', '/never']]],
    });
    assert.deepEqual(res.body.results, [
      { metrics: [10, 21], dimensions: ['/a'] },
      { metrics: [2, 2], dimensions: ['/b'] },
    ]);
  });

  it('a goal filter counts only form-goal conversions: events are the form submits, pages without any are absent', async () => {
    const res = await query({
      site_id: SITE,
      metrics: ['events', 'visitors', 'pageviews'],
      date_range: '7d',
      dimensions: ['event:page'],
      filters: [
        ['is', 'event:page', ['/a', '/b']],
        ['is', 'event:goal', [sim.formGoal]],
      ],
    });
    assert.deepEqual(res.body.results, [{ metrics: [3, 3, 0], dimensions: ['/a'] }]);
    const unknownGoal = await query({ site_id: SITE, metrics: ['events'], date_range: '7d', filters: [['is', 'event:goal', ['Signup']]] });
    assert.equal(unknownGoal.status, 400);
    assert.match(unknownGoal.body.error, /goal `Signup` is not configured/);
  });

  it('time:day rows come oldest first, only for days with data; "all" and "day" include today', async () => {
    const days = await query({
      site_id: SITE,
      metrics: ['pageviews'],
      date_range: ['2026-11-19', '2026-11-22'],
      dimensions: ['time:day'],
      filters: [['is', 'event:page', ['/a']]],
    });
    assert.deepEqual(
      days.body.results.map((r: any) => [r.dimensions[0], r.metrics[0]]),
      [
        ['2026-11-20', 10],
        ['2026-11-21', 11],
        ['2026-11-22', 12],
      ],
    );
    const today = await query({ site_id: SITE, metrics: ['pageviews'], date_range: 'day' });
    assert.deepEqual(today.body.results[0].metrics, [1000]);
    const all = await query({ site_id: SITE, metrics: ['pageviews'], date_range: 'all' });
    assert.deepEqual(all.body.results[0].metrics, [1000 + 91 + 7]);
    assert.equal(all.body.query.date_range[0], '2026-11-20T00:00:00+00:00');
  });

  it('pagination limits and offsets the rows; include.total_rows reports them all', async () => {
    const res = await query({
      site_id: SITE,
      metrics: ['pageviews'],
      date_range: '7d',
      dimensions: ['time:day'],
      pagination: { limit: 2, offset: 1 },
      include: { total_rows: true },
    });
    assert.deepEqual(
      res.body.results.map((r: any) => r.dimensions[0]),
      ['2026-11-21', '2026-11-22'],
    );
    assert.deepEqual(res.body.meta, { total_rows: 7 });
  });

  it('validates like the reference: unknown metric, dimension, date range, operator → 400 {error}', async () => {
    const base = { site_id: SITE, metrics: ['visitors'], date_range: '7d' };
    const cases: Array<[unknown, RegExp]> = [
      [{ ...base, metrics: ['clicks'] }, /^Unknown metric '"clicks"'/],
      [{ ...base, dimensions: ['event:colour'] }, /^Invalid dimensions/],
      [{ ...base, date_range: '7w' }, /^Invalid date_range/],
      [{ ...base, date_range: ['2026-11-22', '2026-11-20'] }, /^Invalid date_range/],
      [{ ...base, filters: [['equals', 'event:page', ['/a']]] }, /^Unknown operator for filter/],
      [{ ...base, filters: [['is', 'event:page', '/a']] }, /^Invalid filter/],
      [{ site_id: SITE, metrics: ['visitors'] }, /date_range/],
      [{ ...base, colour: 'red' }, /additional properties/],
      [{ ...base, order_by: [['pageviews', 'desc']] }, /^Invalid order_by entry/],
      [{ ...base, metrics: ['bounce_rate'] }, /simulator does not compute/],
    ];
    for (const [body, error] of cases) {
      const res = await query(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.error, error, JSON.stringify(body));
    }
    assert.equal((await query({ metrics: ['visitors'], date_range: '7d' })).status, 400);
  });

  it('a missing or wrong Bearer key, or a site the key cannot see, answers 401 {error} as the reference does', async () => {
    const missing = await query({ site_id: SITE, metrics: ['visitors'], date_range: '7d' }, null);
    assert.equal(missing.status, 401);
    assert.match(missing.body.error, /^Missing API key/);
    const wrong = await query({ site_id: SITE, metrics: ['visitors'], date_range: '7d' }, 'not-the-key');
    assert.equal(wrong.status, 401);
    assert.match(wrong.body.error, /^Invalid API key or site ID/);
    const unknown = await query({ site_id: 'other.example.test', metrics: ['visitors'], date_range: '7d' });
    assert.deepEqual([unknown.status, unknown.body.error], [401, wrong.body.error]);
  });

  it('a simulator made with unknownSiteStatus 404 answers 404 for an unknown site', async () => {
    const plain = await startAnalyticsSimulator({ unknownSiteStatus: 404 });
    try {
      const res = await fetch(`${plain.url}/api/v2/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${plain.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: 'nowhere.test', metrics: ['visitors'], date_range: '7d' }),
      });
      assert.equal(res.status, 404);
    } finally {
      await plain.stop();
    }
  });

  it('unreachable() drops connections or answers 503; reachable() restores it; the log records every query', async () => {
    const body = { site_id: SITE, metrics: ['visitors'], date_range: '7d' };
    sim.unreachable();
    await assert.rejects(query(body));
    sim.unreachable('503');
    assert.equal((await query(body)).status, 503);
    sim.reachable();
    assert.equal((await query(body)).status, 200);
    assert.deepEqual(
      sim.requests.map((r) => [r.siteId, r.status]),
      [
        [SITE, 503],
        [SITE, 200],
      ],
    );
    assert.deepEqual(sim.requests[1].body, body);
  });

  it('failNext arms 429 (with Retry-After) and 5xx answers; delayMs slows every answer', async () => {
    const body = { site_id: SITE, metrics: ['visitors'], date_range: '7d' };
    sim.failNext(1, 429);
    sim.failNext(1, 500);
    const limited = await query(body);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '60');
    assert.match(limited.body.error, /Too many API requests/);
    assert.equal((await query(body)).status, 500);
    sim.delayMs = 150;
    const started = Date.now();
    assert.equal((await query(body)).status, 200);
    assert.ok(Date.now() - started >= 140);
  });
});
