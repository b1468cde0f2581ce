import assert from 'node:assert/strict';
import { TokenBucket } from '../../../src/clients/sitePlatform';
import { world, rejectsWith, type World } from './fixtures';

describe('site platform client: rate limits', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it('refuses locally with 429 rate_limited and retry_after_seconds when the bucket is empty, sending nothing', async () => {
    const bucket = w.bucket(60);
    for (let i = 0; i < 60; i += 1) assert.equal(bucket.take().ok, true);
    const client = w.client({ bucket });
    const err = await rejectsWith(client.request({ method: 'GET', path: '/sites', base: 'v2' }), 429, 'rate_limited', w.token);
    assert.equal(err.extra.retryAfterSeconds, 1);
    assert.equal(err.extra.upstreamStatus, undefined);
    assert.equal(w.sim.requests().length, 0);
    w.clock.advance(1000); // refills continuously: one per second at 60/min
    assert.equal((await client.request({ method: 'GET', path: '/sites', base: 'v2' })).status, 200);
  });

  it('v2 and beta calls draw on the same bucket', async () => {
    const bucket = w.bucket(60);
    for (let i = 0; i < 58; i += 1) bucket.take();
    const client = w.client({ bucket });
    await client.request({ method: 'GET', path: '/sites', base: 'v2' });
    await client.request({ method: 'GET', path: '/sites', base: 'beta' });
    await rejectsWith(client.request({ method: 'GET', path: '/sites', base: 'beta' }), 429, 'rate_limited');
    await rejectsWith(client.request({ method: 'GET', path: '/sites', base: 'v2' }), 429, 'rate_limited');
    assert.equal(w.sim.requests().length, 2);
  });

  it('sizes the bucket from the advertised X-RateLimit-Limit (120 on the higher plan)', async () => {
    const token = w.sim.issueToken({ scopes: ['sites:read'], plan: 120 });
    const bucket = w.bucket();
    assert.equal(bucket.limit, 60);
    await w.client({ token, bucket }).listSites();
    assert.equal(bucket.limit, 120);
    assert.ok(bucket.available() >= 118 && bucket.available() <= 119);
  });

  it('follows the platform count down: X-RateLimit-Remaining below the bucket empties it to match', async () => {
    for (let i = 0; i < 59; i += 1)
      await (await fetch(`${w.sim.baseUrl}/v2/sites`, { headers: { authorization: `Bearer ${w.token}` } })).arrayBuffer();
    const bucket = w.bucket();
    const client = w.client({ bucket });
    await client.listSites(); // the platform reports 0 remaining
    await rejectsWith(client.listSites(), 429, 'rate_limited');
  });

  it('retries a remote 429 on GET once, after Retry-After', async () => {
    await w.exhaust();
    const waits: number[] = [];
    const client = w.client({
      sleep: async (ms) => {
        waits.push(ms);
        w.clock.advance(ms);
      },
    });
    const since = w.sim.requests().length;
    const sites = await client.listSites();
    assert.equal(sites.length, 1);
    assert.deepEqual(waits, [60_000]);
    assert.deepEqual(w.seen('/v2/sites', since), [
      { method: 'GET', status: 429 },
      { method: 'GET', status: 200 },
    ]);
  });

  it('retries a GET only once: a second 429 answers 429 rate_limited with upstreamStatus', async () => {
    await w.exhaust();
    // Another process spends the fresh window while the client waits out Retry-After.
    const client = w.client({
      sleep: async (ms) => {
        w.clock.advance(ms);
        await w.exhaust();
      },
    });
    const since = w.sim.requests().length;
    const err = await rejectsWith(client.listSites(), 429, 'rate_limited', w.token);
    assert.deepEqual([err.extra.upstreamStatus, err.extra.retryAfterSeconds], [429, 60]);
    const mine = w.seen('/v2/sites', since).filter((r) => r.status === 429);
    assert.equal(mine.length, 3); // the client's first try, the exhaust's last probe, the client's one retry
  });

  it('never retries a POST after a remote 429', async () => {
    await w.exhaust();
    let slept = false;
    const client = w.client({
      sleep: async () => {
        slept = true;
      },
    });
    const since = w.sim.requests().length;
    const err = await rejectsWith(
      client.request({
        method: 'POST',
        path: `/collections/${w.blog.id}/items`,
        base: 'v2',
        body: { fieldData: { name: 'x', slug: 'x' } },
      }),
      429,
      'rate_limited',
    );
    assert.deepEqual([err.extra.upstreamStatus, err.extra.retryAfterSeconds, slept], [429, 60, false]);
    assert.equal(w.seen(`/v2/collections/${w.blog.id}/items`, since).length, 1);
  });

  it("a remote 429 holds the connection's bucket for its Retry-After: the next calls are refused locally, sending nothing, then flow", async () => {
    await w.exhaust();
    const bucket = w.bucket(60);
    const client = w.client({ bucket, maxRetryWaitMs: 0 });
    const since = w.sim.requests().length;
    const remote = await rejectsWith(client.listSites(), 429, 'rate_limited');
    assert.equal(remote.extra.upstreamStatus, 429);
    assert.ok(bucket.available() < 1, 'the bucket is held empty');
    const local = await rejectsWith(client.listSites(), 429, 'rate_limited');
    assert.deepEqual([local.extra.upstreamStatus, local.extra.retryAfterSeconds], [undefined, remote.extra.retryAfterSeconds]);
    assert.equal(w.seen('/v2/sites', since).length, 1, 'only the first call reached the platform');
    w.clock.advance(remote.extra.retryAfterSeconds! * 1000);
    assert.equal((await client.request({ method: 'GET', path: '/sites', base: 'v2' })).status, 200);
  });

  it('does not wait past the cap: a Retry-After longer than maxRetryWaitMs answers 429 at once', async () => {
    await w.exhaust();
    let slept = false;
    const client = w.client({
      maxRetryWaitMs: 5_000,
      sleep: async () => {
        slept = true;
      },
    });
    const since = w.sim.requests().length;
    await rejectsWith(client.listSites(), 429, 'rate_limited');
    assert.equal(slept, false);
    assert.equal(w.seen('/v2/sites', since).length, 1);
  });
});

describe('site platform client: token bucket', () => {
  it('refills continuously at perMinute/60 per second and never above its size', () => {
    let now = 0;
    const bucket = new TokenBucket(120, () => now);
    for (let i = 0; i < 120; i += 1) bucket.take();
    assert.deepEqual(bucket.take(), { ok: false, retryAfterSeconds: 1 });
    now += 500; // 120/min = 1 per 500 ms
    assert.deepEqual(bucket.take(), { ok: true });
    now += 10 * 60_000;
    assert.equal(bucket.available(), 120);
  });
});

describe('site platform client: token bucket hold', () => {
  it("holdFor empties the bucket until the hold ends, keeps a longer hold, and is full when it ends (the platform's window starts afresh)", () => {
    let now = 0;
    const bucket = new TokenBucket(60, () => now);
    bucket.holdFor(30_000);
    assert.deepEqual(bucket.take(), { ok: false, retryAfterSeconds: 30 });
    bucket.holdFor(10_000);
    now = 20_000;
    assert.deepEqual(bucket.take(), { ok: false, retryAfterSeconds: 10 });
    now = 30_000;
    for (let i = 0; i < 60; i += 1) assert.equal(bucket.take().ok, true, `take ${i + 1} after the hold`);
    assert.equal(bucket.take().ok, false);
  });
});
