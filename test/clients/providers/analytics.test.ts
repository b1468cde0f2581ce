import assert from 'node:assert/strict';
import { createAnalyticsClient, type AnalyticsClient } from '../../../src/clients/providers/analytics';
import { daysEnding, startAnalyticsSimulator, type AnalyticsSimulator } from '../../../src/sandbox/analytics';
import { assertKeyAbsent, assertProviderError, CLOSED_PORT_URL, providerFailure } from './providerErrors';

const NOW = new Date('2026-11-27T10:00:00Z');
const SITE = 'www.example.test';

describe('analytics client (Plausible Stats API v2, against the simulator)', () => {
  let sim: AnalyticsSimulator;
  let client: AnalyticsClient;
  const config = (overrides: Record<string, unknown> = {}) => ({
    ANALYTICS_API_URL: sim.url,
    ANALYTICS_API_KEY: sim.apiKey,
    ANALYTICS_TIMEOUT_MS: 2000,
    ANALYTICS_FORM_GOAL: sim.formGoal,
    ...overrides,
  });
  before(async () => {
    sim = await startAnalyticsSimulator({ now: () => NOW });
    client = createAnalyticsClient(config())!;
  });
  beforeEach(() => {
    for (const date of daysEnding('2026-11-26', 30)) {
      sim.seed(SITE, '/pricing', [{ date, pageviews: 4, visitors: 3, form_submits: 1 }]);
      sim.seed(SITE, '/blog/post', [{ date, pageviews: 2, visitors: 2, form_submits: 0 }]);
    }
    sim.seed(SITE, '/contact', [{ date: '2026-11-26', pageviews: 0, visitors: 0, form_submits: 2 }]);
    sim.addSite('empty.example.test');
  });
  afterEach(() => sim.reset());
  after(() => sim.stop());

  it('is null without ANALYTICS_API_KEY (unset or blank never reaches here: config turns "" into undefined)', () => {
    assert.equal(createAnalyticsClient(config({ ANALYTICS_API_KEY: undefined })), null);
  });

  it('pageStats: pageviews, visitors and form submits per path in two queries (never one per path); absent is not zero', async () => {
    const stats = await client.pageStats(SITE, ['/pricing', '/blog/post', '/contact', '/never-seen'], '7d');
    assert.deepEqual(Object.fromEntries(stats), {
      '/pricing': { pageviews: 28, visitors: 21, form_submits: 7 },
      '/blog/post': { pageviews: 14, visitors: 14, form_submits: 0 },
      '/contact': { pageviews: 0, visitors: 0, form_submits: 2 },
    });
    assert.equal(stats.has('/never-seen'), false);
    assert.equal(sim.requests.length, 2);
    const bodies = sim.requests.map((r) => r.body!).sort((a, b) => String(a.metrics).localeCompare(String(b.metrics)));
    assert.deepEqual(bodies[0], {
      site_id: SITE,
      metrics: ['events'],
      date_range: '7d',
      dimensions: ['event:page'],
      filters: [
        ['is', 'event:page', ['/pricing', '/blog/post', '/contact', '/never-seen']],
        ['is', 'event:goal', [sim.formGoal]],
      ],
      pagination: { limit: 4, offset: 0 },
    });
    assert.deepEqual(bodies[1].metrics, ['pageviews', 'visitors']);
    assert.deepEqual(bodies[1].filters, [['is', 'event:page', ['/pricing', '/blog/post', '/contact', '/never-seen']]]);
  });

  it('pageTraffic and pageFormSubmits are one query each; a custom [from, to] range is sent as given', async () => {
    const traffic = await client.pageTraffic(SITE, ['/pricing', '/pricing'], ['2026-11-25', '2026-11-26']);
    assert.deepEqual(Object.fromEntries(traffic), { '/pricing': { pageviews: 8, visitors: 6 } });
    const submits = await client.pageFormSubmits(SITE, ['/pricing', '/blog/post'], '30d');
    assert.deepEqual(Object.fromEntries(submits), { '/pricing': 30 });
    assert.equal(sim.requests.length, 2);
    assert.deepEqual(sim.requests[0].body!.date_range, ['2026-11-25', '2026-11-26']);
    assert.deepEqual(sim.requests[0].body!.filters, [['is', 'event:page', ['/pricing']]]);
  });

  it('no paths: no query at all', async () => {
    assert.equal((await client.pageStats(SITE, [], '30d')).size, 0);
    assert.equal(sim.requests.length, 0);
  });

  it('a site the collector has but with no traffic answers an empty map', async () => {
    assert.equal((await client.pageStats('empty.example.test', ['/'], 'all')).size, 0);
  });

  it('dailyStats: one time:day query; every day from..to answered, days without traffic as zeros', async () => {
    const days = await client.dailyStats(SITE, '/contact', '2026-11-25', '2026-11-27');
    assert.deepEqual(days, [
      { date: '2026-11-25', pageviews: 0, visitors: 0 },
      { date: '2026-11-26', pageviews: 0, visitors: 0 },
      { date: '2026-11-27', pageviews: 0, visitors: 0 },
    ]);
    const pricing = await client.dailyStats(SITE, '/pricing', '2026-10-27', '2026-10-29');
    assert.deepEqual(
      pricing.map((d) => [d.date, d.pageviews, d.visitors]),
      [
        ['2026-10-27', 0, 0],
        ['2026-10-28', 4, 3],
        ['2026-10-29', 4, 3],
      ],
    );
    assert.deepEqual(sim.requests[1].body, {
      site_id: SITE,
      metrics: ['pageviews', 'visitors'],
      date_range: ['2026-10-27', '2026-10-29'],
      dimensions: ['time:day'],
      filters: [['is', 'event:page', ['/pricing']]],
    });
    await assert.rejects(client.dailyStats(SITE, '/pricing', '2026-10-29', '2026-10-27'), RangeError);
  });

  it('a wrong key is analytics_auth (not retryable) and the key never appears in the error', async () => {
    const wrong = 'plausible-wrong-key-0123456789';
    const err = await providerFailure(createAnalyticsClient(config({ ANALYTICS_API_KEY: wrong }))!.pageStats(SITE, ['/'], '7d'));
    assertProviderError(err, 'analytics_auth', false, 401);
    assert.equal(err.provider, 'analytics');
    assertKeyAbsent(err, wrong);
    assertKeyAbsent(err, sim.apiKey);
  });

  it("a site the key cannot see: the reference's 401 is analytics_auth marked invalid_key_or_site; a 404 is analytics_site_not_found", async () => {
    const err = await providerFailure(client.pageTraffic('unknown.example.test', ['/'], '7d'));
    assertProviderError(err, 'analytics_auth', false, 401);
    assert.equal(err.upstreamCode, 'invalid_key_or_site');
    const plain = await startAnalyticsSimulator({ unknownSiteStatus: 404 });
    try {
      const other = createAnalyticsClient(config({ ANALYTICS_API_URL: plain.url, ANALYTICS_API_KEY: plain.apiKey }))!;
      assertProviderError(
        await providerFailure(other.pageTraffic('unknown.example.test', ['/'], '7d')),
        'analytics_site_not_found',
        false,
        404,
      );
    } finally {
      await plain.stop();
    }
  });

  it('429 is analytics_rate_limited (retryable, with Retry-After); 5xx is analytics_unavailable (retryable)', async () => {
    sim.failNext(1, 429);
    const limited = await providerFailure(client.pageTraffic(SITE, ['/'], '7d'));
    assertProviderError(limited, 'analytics_rate_limited', true, 429);
    assert.equal(limited.retryAfterSeconds, 60);
    sim.failNext(1, 502);
    assertProviderError(await providerFailure(client.pageTraffic(SITE, ['/'], '7d')), 'analytics_unavailable', true, 502);
  });

  it('unreachable (dropped connections, 503, a closed port) and slower than ANALYTICS_TIMEOUT_MS are analytics_unavailable', async () => {
    sim.unreachable();
    assertProviderError(await providerFailure(client.pageStats(SITE, ['/'], '7d')), 'analytics_unavailable', true);
    sim.unreachable('503');
    assertProviderError(await providerFailure(client.pageStats(SITE, ['/'], '7d')), 'analytics_unavailable', true, 503);
    sim.reachable();
    const closed = createAnalyticsClient(config({ ANALYTICS_API_URL: CLOSED_PORT_URL }))!;
    assertProviderError(await providerFailure(closed.pageTraffic(SITE, ['/'], '7d')), 'analytics_unavailable', true);
    sim.delayMs = 600;
    const impatient = createAnalyticsClient(config({ ANALYTICS_TIMEOUT_MS: 200 }))!;
    const slow = await providerFailure(impatient.pageTraffic(SITE, ['/'], '7d'));
    assertProviderError(slow, 'analytics_unavailable', true);
    assert.match(slow.message, /timed out/);
  });

  it('a 200 that is not a query result, and a refused query (400), are analytics_bad_response', async () => {
    sim.malformedNext(1);
    assertProviderError(await providerFailure(client.pageTraffic(SITE, ['/'], '7d')), 'analytics_bad_response', false, 200);
    const goalless = createAnalyticsClient(config({ ANALYTICS_FORM_GOAL: 'Newsletter' }))!;
    assertProviderError(await providerFailure(goalless.pageFormSubmits(SITE, ['/'], '7d')), 'analytics_bad_response', false, 400);
  });
});
