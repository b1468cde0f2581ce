import assert from 'node:assert/strict';
import { AccountCache } from '../../../src/email/domains/verifiedCache';

describe('per-account cache of sending states (the per-send check)', () => {
  let now = 0;
  let loads = 0;
  let stored: string[] = [];
  const load = async () => {
    loads++;
    return new Set(stored);
  };
  beforeEach(() => {
    now = 1_000;
    loads = 0;
    stored = ['example.com'];
  });

  it('reads an account once per TTL', async () => {
    const cache = new AccountCache<Set<string>>(() => now, 5_000);
    assert.ok((await cache.get('a', load)).has('example.com'));
    stored = [];
    now += 4_999;
    assert.ok((await cache.get('a', load)).has('example.com'), 'stale within the TTL');
    assert.equal(loads, 1);
    now += 1;
    assert.equal((await cache.get('a', load)).size, 0, 'read again once the TTL passed');
    assert.equal(loads, 2);
  });

  it('is read again at once after a change through this process', async () => {
    const cache = new AccountCache<Set<string>>(() => now, 5_000);
    await cache.get('a', load);
    stored = [];
    cache.invalidate('a');
    assert.equal((await cache.get('a', load)).size, 0);
  });

  it('shares one read among concurrent checks and keeps accounts apart', async () => {
    const cache = new AccountCache<Set<string>>(() => now, 5_000);
    const [x, y] = await Promise.all([cache.get('a', load), cache.get('a', load)]);
    assert.equal(x, y);
    assert.equal(loads, 1);
    await cache.get('b', async () => {
      loads++;
      return new Set(['other.test']);
    });
    assert.ok(!(await cache.get('a', load)).has('other.test'));
  });

  it('does not store a read that was under way when the account changed', async () => {
    const cache = new AccountCache<Set<string>>(() => now, 5_000);
    let release!: () => void;
    const slow = cache.get(
      'a',
      () =>
        new Promise<Set<string>>((resolve) => {
          release = () => resolve(new Set(['example.com']));
        }),
    );
    cache.invalidate('a');
    stored = [];
    release();
    assert.ok((await slow).has('example.com'), 'the slow read answers its own caller');
    assert.equal((await cache.get('a', load)).size, 0, 'but the next check reads again');
  });
});
