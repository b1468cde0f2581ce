import assert from 'node:assert/strict';
import { SlidingWindow } from '../../../src/email/limits/slidingWindow';
import { KeyRateLimiter, rateLimitHeaders, replicaShare } from '../../../src/email/limits/rateLimiter';

/** Admissions at the given times; answers which were admitted. */
function drive(window: SlidingWindow, times: number[], n = 1): boolean[] {
  return times.map((t) => window.tryAdmit(n, t).admitted);
}

/** The most admissions inside any window [t, t + 1000) over a log of admission times. */
function maxInAnySecond(log: number[]): number {
  let max = 0;
  for (const start of log) max = Math.max(max, log.filter((t) => t >= start && t < start + 1000).length);
  return max;
}

describe('email limits: per-second sliding window', () => {
  it('the limiter admits exactly the limit in one second, then refuses', () => {
    const window = new SlidingWindow(10);
    const results = drive(
      window,
      Array.from({ length: 15 }, (_, i) => 1000 + i * 10),
    );
    assert.deepEqual(results, [...Array(10).fill(true), ...Array(5).fill(false)]);
  });

  it('a slot frees exactly one second after the admission that took it', () => {
    const window = new SlidingWindow(3);
    assert.deepEqual(drive(window, [0, 100, 200]), [true, true, true]);
    assert.equal(window.tryAdmit(1, 999.9).admitted, false);
    assert.equal(window.tryAdmit(1, 1000).admitted, true, 'the admission at 0 has left the window');
    assert.equal(window.tryAdmit(1, 1099).admitted, false);
    assert.equal(window.tryAdmit(1, 1100).admitted, true);
  });

  it('the limiter admits exactly the limit in ANY one-second window, not per calendar second', () => {
    // A fixed window would admit 5 at 0.9 s and 5 more at 1.0 s: 10 within 100 ms.
    const window = new SlidingWindow(5);
    assert.deepEqual(drive(window, [900, 910, 920, 930, 940]), Array(5).fill(true));
    assert.deepEqual(drive(window, [1000, 1500, 1899]), [false, false, false]);
    assert.equal(window.tryAdmit(1, 1900).admitted, true);
  });

  it('under a steady overload no one-second window ever holds more than the limit', () => {
    const window = new SlidingWindow(7);
    const log: number[] = [];
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 10_000; t += random() * 40) {
      if (window.tryAdmit(1, t).admitted) log.push(t);
    }
    assert.equal(maxInAnySecond(log), 7);
    assert.ok(log.length >= 7 * 9, `the limit is reached each second (${log.length} admissions in 10 s)`);
  });

  it('a batch of n is admitted whole or not at all', () => {
    const window = new SlidingWindow(10);
    assert.equal(window.tryAdmit(7, 0).admitted, true);
    const refused = window.tryAdmit(4, 10);
    assert.equal(refused.admitted, false);
    assert.equal(window.tryAdmit(3, 20).admitted, true, 'the refused batch took nothing');
    assert.equal(window.tryAdmit(1, 30).admitted, false);
    assert.equal(window.tryAdmit(7, 1000).admitted, true, 'the first batch of 7 left the window together');
  });

  it('a batch larger than the limit is never admitted', () => {
    assert.equal(new SlidingWindow(5).tryAdmit(6, 0).admitted, false);
  });

  it('Retry-After is the time until enough admissions leave the window', () => {
    const window = new SlidingWindow(2);
    window.tryAdmit(1, 0);
    window.tryAdmit(1, 400);
    const refused = window.tryAdmit(1, 500);
    assert.equal(refused.admitted, false);
    assert.equal(refused.admitted === false && refused.retryAfterMs, 500);
    const batch = window.tryAdmit(2, 500);
    assert.equal(batch.admitted === false && batch.retryAfterMs, 900, 'a batch of 2 waits for both');
  });

  it('remaining and reset describe the window after an admission', () => {
    const window = new SlidingWindow(3);
    const first = window.tryAdmit(1, 0);
    assert.deepEqual(first, { admitted: true, limit: 3, remaining: 2, resetMs: 1000 });
    window.tryAdmit(1, 300);
    assert.deepEqual(window.status(1200), { limit: 3, remaining: 2, resetMs: 100 });
    assert.deepEqual(window.status(5000), { limit: 3, remaining: 3, resetMs: 0 });
    assert.deepEqual(rateLimitHeaders({ limit: 3, remaining: 2, resetMs: 100 }), {
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '2',
      'RateLimit-Reset': '1',
    });
  });

  it('a refund takes back the last admissions', () => {
    const window = new SlidingWindow(3);
    assert.deepEqual(drive(window, [0, 1, 2]), [true, true, true]);
    window.refund(2);
    assert.deepEqual(drive(window, [3, 4, 5]), [true, true, false]);
  });

  it('with EMAIL_RATE_REPLICAS = N each replica admits floor(limit / N), at least 1', () => {
    assert.equal(replicaShare(10, 1), 10);
    assert.equal(replicaShare(10, 3), 3);
    assert.equal(replicaShare(10, 20), 1);
    let now = 0;
    const limiter = new KeyRateLimiter(3, () => now);
    const admitted = Array.from({ length: 5 }, () => limiter.admit('k', 10, 1).admitted);
    assert.deepEqual(admitted, [true, true, true, false, false]);
    now = 1000;
    assert.equal(limiter.admit('k', 10, 1).admitted, true);
  });

  it('a changed limit resizes the window and keeps its recent admissions', () => {
    let now = 0;
    const limiter = new KeyRateLimiter(1, () => now);
    for (let i = 0; i < 3; i++) limiter.admit('k', 3, 1);
    assert.equal(limiter.admit('k', 5, 2).admitted, true, 'raised to 5: two more');
    assert.equal(limiter.admit('k', 5, 1).admitted, false);
    now = 10;
    assert.equal(limiter.admit('k', 2, 1).admitted, false, 'lowered to 2: the window is already full');
    now = 1000;
    assert.equal(limiter.admit('k', 2, 2).admitted, true);
  });
});
