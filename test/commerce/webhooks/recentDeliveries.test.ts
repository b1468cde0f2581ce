import assert from 'node:assert/strict';
import { RecentDeliveries } from '../../../src/commerce/webhooks/recentDeliveries';

describe('in-memory dedup set of the receiver', () => {
  it('a key is a duplicate for 10 minutes and forgotten after', () => {
    let now = 0;
    const recent = new RecentDeliveries({ now: () => now });
    recent.add('conn:w1');
    now = 10 * 60_000 - 1;
    assert.equal(recent.has('conn:w1'), true);
    now = 10 * 60_000;
    assert.equal(recent.has('conn:w1'), false);
    assert.equal(recent.size, 0);
  });

  it('expired keys are dropped as new ones arrive, and the size bound evicts the oldest first', () => {
    let now = 0;
    const recent = new RecentDeliveries({ now: () => now, windowMs: 1_000, maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) {
      recent.add(key);
      now += 100;
    }
    recent.add('d');
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((k) => recent.has(k)),
      [false, true, true, true],
    );
    now = 5_000;
    recent.add('e');
    assert.equal(recent.size, 1);
    recent.clear();
    assert.equal(recent.has('e'), false);
  });
});
