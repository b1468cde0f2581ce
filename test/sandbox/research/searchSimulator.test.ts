import assert from 'node:assert/strict';
import { startSearchSimulator, type SearchSimulator } from '../../../src/sandbox/search';

describe('search simulator (Brave Search API on loopback)', () => {
  let sim: SearchSimulator;
  const get = (query: string, token: string | null = sim.apiKey) =>
    fetch(`${sim.url}?${query}`, { headers: token === null ? {} : { 'x-subscription-token': token, accept: 'application/json' } });
  const results = (n: number, prefix = 'r') =>
    Array.from({ length: n }, (_, i) => ({
      title: `${prefix} ${i + 1}`,
      url: `https://example.org/${prefix}/${i + 1}`,
      description: `About result ${i + 1}.`,
    }));
  before(async () => {
    sim = await startSearchSimulator({ apiKey: 'BSA-test-key' });
  });
  after(() => sim.stop());

  it('serves 127.0.0.1 at the Brave endpoint path with the given key', () => {
    assert.match(sim.url, /^http:\/\/127\.0\.0\.1:\d+\/res\/v1\/web\/search$/);
    assert.equal(sim.apiKey, 'BSA-test-key');
  });

  it('a wrong or missing X-Subscription-Token is 401 with a Brave error body', async () => {
    for (const token of ['wrong', null]) {
      const res = await get('q=x', token);
      assert.equal(res.status, 401);
      const body = (await res.json()) as any;
      assert.equal(body.type, 'ErrorResponse');
      assert.equal(body.error.code, 'SUBSCRIPTION_TOKEN_INVALID');
    }
  });

  it('answers the results set for the query, or the "*" results for any other query, in web.results', async () => {
    sim.setResults('Heat Pumps', results(2, 'heat'));
    sim.setResults('*', results(1, 'any'));
    const heat = (await (await get('q=heat%20pumps&count=5')).json()) as any;
    assert.deepEqual(
      heat.web.results.map((r: { url: string }) => r.url),
      ['https://example.org/heat/1', 'https://example.org/heat/2'],
    );
    assert.equal(heat.query.original, 'heat pumps');
    const other = (await (await get('q=solar&count=5')).json()) as any;
    assert.deepEqual(
      other.web.results.map((r: { title: string }) => r.title),
      ['any 1'],
    );
  });

  it('count is respected, at most 20', async () => {
    sim.setResults('many', results(30));
    assert.equal(((await (await get('q=many&count=3')).json()) as any).web.results.length, 3);
    assert.equal(((await (await get('q=many&count=50')).json()) as any).web.results.length, 20);
    assert.equal(((await (await get('q=many')).json()) as any).web.results.length, 20);
  });

  it('records every call with its q and count', async () => {
    const before = sim.calls.length;
    await get('q=recorded&count=7');
    assert.deepEqual(sim.calls.slice(before), [{ q: 'recorded', count: 7 }]);
  });

  it('failNext(n, 429) answers 429 with Retry-After n times, then serves again', async () => {
    sim.failNext(2, 429);
    for (let i = 0; i < 2; i += 1) {
      const res = await get('q=x');
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '1');
      assert.equal(((await res.json()) as any).error.code, 'RATE_LIMITED');
    }
    assert.equal((await get('q=x')).status, 200);
  });

  it('failNext(n, 5xx) answers that status', async () => {
    sim.failNext(1, 502);
    assert.equal((await get('q=x')).status, 502);
  });

  it('a missing query is 422', async () => {
    assert.equal((await get('count=3')).status, 422);
  });

  it('stop() closes the server and a request held by delayMs', async () => {
    const other = await startSearchSimulator();
    other.delayMs = 10_000;
    const pending = fetch(`${other.url}?q=x`, { headers: { 'x-subscription-token': other.apiKey } });
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await other.stop();
    await assert.rejects(pending);
    assert.ok(Date.now() - started < 2000);
  });
});
