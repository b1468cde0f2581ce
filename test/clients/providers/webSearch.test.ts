import assert from 'node:assert/strict';
import { createWebSearchClient, type WebSearchClient } from '../../../src/clients/providers/webSearch';
import { startSearchSimulator, type SearchSimulator } from '../../../src/sandbox/search';
import { assertKeyAbsent, assertProviderError, CLOSED_PORT_URL, providerFailure } from './providerErrors';

describe('web search client (Brave Search API protocol, against the simulator)', () => {
  let sim: SearchSimulator;
  let client: WebSearchClient;
  const results = [
    { title: 'Heat pumps &amp; you', url: 'https://example.org/heat-pumps', description: "Heat pumps cut bills by 40% — here's how." },
    { title: 'Heat pump costs', url: 'https://example.net/costs', description: 'What a heat pump costs in 2025.' },
    { title: 'Not a web page', url: 'ftp://example.com/file', description: 'skipped' },
    { title: 'Installers', url: 'https://example.com/installers' },
  ];
  before(async () => {
    sim = await startSearchSimulator();
    client = createWebSearchClient({ SEARCH_API_URL: sim.url, SEARCH_API_KEY: sim.apiKey, FETCH_TIMEOUT_MS: 2000 })!;
  });
  beforeEach(() => {
    sim.delayMs = 0;
    sim.setResults('heat pumps', results);
  });
  after(() => sim.stop());

  it('sends q and count with the key in X-Subscription-Token and reads web.results with 1-based positions', async () => {
    const found = await client.search('  heat pumps ', { count: 2 });
    assert.deepEqual(sim.calls.at(-1), { q: 'heat pumps', count: 2 });
    assert.deepEqual(found, [
      {
        position: 1,
        title: 'Heat pumps & you',
        url: 'https://example.org/heat-pumps',
        description: "Heat pumps cut bills by 40% — here's how.",
      },
      { position: 2, title: 'Heat pump costs', url: 'https://example.net/costs', description: 'What a heat pump costs in 2025.' },
    ]);
  });

  it('descriptions arrive as HTML (highlights, entities) and are returned as plain text', async () => {
    const raw = await fetch(`${sim.url}?q=heat+pumps&count=1`, { headers: { 'x-subscription-token': sim.apiKey } }).then(
      (r) => r.json() as any,
    );
    assert.match(raw.web.results[0].description, /<strong>Heat<\/strong>.*&#x27;/);
    const [first] = await client.search('heat pumps', { count: 1 });
    assert.equal(first.description, "Heat pumps cut bills by 40% — here's how.");
  });

  it('only http(s) results are kept and a missing description reads as empty', async () => {
    const found = await client.search('heat pumps', { count: 10 });
    assert.deepEqual(
      found.map((r) => r.url),
      ['https://example.org/heat-pumps', 'https://example.net/costs', 'https://example.com/installers'],
    );
    assert.deepEqual(
      found.map((r) => r.position),
      [1, 2, 3],
    );
    assert.equal(found[2].description, '');
  });

  it('count is clamped to the API range 1..20', async () => {
    await client.search('heat pumps', { count: 50 });
    assert.equal(sim.calls.at(-1)!.count, 20);
    await client.search('heat pumps', { count: 0 });
    assert.equal(sim.calls.at(-1)!.count, 1);
  });

  it('a query with no results answers an empty list (the API leaves out web)', async () => {
    assert.deepEqual(await client.search('nothing matches this', { count: 5 }), []);
  });

  it('no client without a key', () => {
    assert.equal(createWebSearchClient({ SEARCH_API_URL: sim.url, SEARCH_API_KEY: undefined, FETCH_TIMEOUT_MS: 2000 }), null);
  });

  it('a wrong key is search_unauthorized (401, not retryable) and the key is not in the error', async () => {
    const wrongKey = 'BSA-wrong-key-0123456789';
    const wrong = createWebSearchClient({ SEARCH_API_URL: sim.url, SEARCH_API_KEY: wrongKey, FETCH_TIMEOUT_MS: 2000 })!;
    const err = await providerFailure(wrong.search('heat pumps', { count: 3 }));
    assertProviderError(err, 'search_unauthorized', false, 401);
    assert.equal(err.provider, 'search');
    assertKeyAbsent(err, wrongKey);
  });

  it('429 is search_rate_limited, retryable, with the Retry-After seconds', async () => {
    sim.failNext(1, 429);
    const err = await providerFailure(client.search('heat pumps', { count: 3 }));
    assertProviderError(err, 'search_rate_limited', true, 429);
    assert.equal(err.retryAfterSeconds, 1);
    assertKeyAbsent(err, sim.apiKey);
  });

  it('5xx is search_unavailable, retryable', async () => {
    sim.failNext(1, 503);
    assertProviderError(await providerFailure(client.search('heat pumps', { count: 3 })), 'search_unavailable', true, 503);
    sim.failNext(1, 500);
    assertProviderError(await providerFailure(client.search('heat pumps', { count: 3 })), 'search_unavailable', true, 500);
    assert.equal((await client.search('heat pumps', { count: 1 })).length, 1, 'the next call succeeds');
  });

  it('a timeout is search_unavailable, retryable', async () => {
    const quick = createWebSearchClient({ SEARCH_API_URL: sim.url, SEARCH_API_KEY: sim.apiKey, FETCH_TIMEOUT_MS: 150 })!;
    sim.delayMs = 1000;
    const err = await providerFailure(quick.search('heat pumps', { count: 3 }));
    assertProviderError(err, 'search_unavailable', true);
    assert.match(err.message, /timed out/);
  });

  it('a refused connection is search_unavailable, retryable', async () => {
    const down = createWebSearchClient({ SEARCH_API_URL: CLOSED_PORT_URL, SEARCH_API_KEY: sim.apiKey, FETCH_TIMEOUT_MS: 2000 })!;
    assertProviderError(await providerFailure(down.search('heat pumps', { count: 3 })), 'search_unavailable', true);
  });

  it('malformed JSON is search_bad_response, not retryable', async () => {
    sim.malformedNext(1);
    const err = await providerFailure(client.search('heat pumps', { count: 3 }));
    assertProviderError(err, 'search_bad_response', false, 200);
  });

  it('a cancelled call rethrows the abort reason', async () => {
    sim.delayMs = 1000;
    const controller = new AbortController();
    const reason = new Error('activity cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(client.search('heat pumps', { count: 3, signal: controller.signal }), (err) => err === reason);
  });
});
