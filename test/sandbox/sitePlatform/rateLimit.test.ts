import assert from 'node:assert/strict';
import { world, type World } from './fixtures';

describe('site platform simulator: rate limit per token per minute', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  async function burn(token: string, n: number): Promise<Response> {
    let last: Response | undefined;
    for (let i = 0; i < n; i++) {
      last = await w.api('/sites', { token });
      await last.arrayBuffer();
    }
    return last!;
  }

  it('every answer carries X-RateLimit-Limit and a falling X-RateLimit-Remaining', async () => {
    const first = await w.api('/sites');
    assert.equal(first.headers.get('x-ratelimit-limit'), '60');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '59');
    const second = await w.api(`/sites/${w.site.id}`);
    assert.equal(second.headers.get('x-ratelimit-remaining'), '58');
  });

  it('the 61st request in a minute on a 60 plan answers 429 too_many_requests with Retry-After', async () => {
    const sixtieth = await burn(w.token, 60);
    assert.equal(sixtieth.status, 200);
    assert.equal(sixtieth.headers.get('x-ratelimit-remaining'), '0');
    w.clock.advance(20_000);
    const over = await w.api('/sites');
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('retry-after'), '40');
    assert.equal(((await over.json()) as { code: string }).code, 'too_many_requests');
    w.clock.advance(40_000);
    assert.equal((await w.api('/sites')).status, 200, 'a new minute opens a new window');
  });

  it('a 120 plan allows 120, and each token has its own window', async () => {
    const big = w.sim.issueToken({ scopes: ['sites:read'], plan: 120 });
    assert.equal((await burn(big, 120)).status, 200);
    assert.equal((await w.api('/sites', { token: big })).status, 429);
    assert.equal((await w.api('/sites')).status, 200, 'the other token is untouched');
  });

  it('liftRateLimit stops refusals for benchmarks, reports the full limit as remaining (so a client bucket is not drained), and can be restored', async () => {
    w.sim.liftRateLimit();
    const last = await burn(w.token, 70);
    assert.equal(last.status, 200);
    assert.equal(last.headers.get('x-ratelimit-remaining'), last.headers.get('x-ratelimit-limit'));
    w.sim.liftRateLimit(false);
    assert.equal((await w.api('/sites')).status, 429);
  });
});
