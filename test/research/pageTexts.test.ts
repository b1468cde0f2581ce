import assert from 'node:assert/strict';
import { PageTextCache } from '../../src/research/pageTexts';

describe('page texts kept for the indexing step (per worker)', () => {
  it('a text is found by account, URL and hash only', () => {
    const cache = new PageTextCache();
    cache.put('acct-1', 'https://example.test/a', 'h1', 'text of a');
    assert.equal(cache.get('acct-1', 'https://example.test/a', 'h1'), 'text of a');
    assert.equal(cache.get('acct-1', 'https://example.test/a', 'h2'), undefined, 'another hash: the page changed');
    assert.equal(cache.get('acct-2', 'https://example.test/a', 'h1'), undefined, 'another account never sees it');
  });

  it('stale texts and texts past the size bound are dropped, oldest first', () => {
    const cache = new PageTextCache(20, 1_000);
    cache.put('a', 'u1', 'h', '0123456789', 0);
    cache.put('a', 'u2', 'h', '0123456789', 10);
    cache.put('a', 'u3', 'h', '0123456789', 20);
    assert.equal(cache.get('a', 'u1', 'h', 20), undefined, 'evicted past 20 characters');
    assert.equal(cache.get('a', 'u3', 'h', 20), '0123456789');
    assert.equal(cache.get('a', 'u3', 'h', 2_000), undefined, 'older than the time to live');
  });
});
