import assert from 'node:assert/strict';
import { parseCallLimit, throttleDelayMs } from '../../../src/clients/commerce/callLimit';
import { retryAfterMs } from '../../../src/clients/commerce/http';
import { nextPageInfo } from '../../../src/clients/commerce/linkHeader';
import { isShopDomain } from '../../../src/clients/commerce';

describe('commerce client header parsing (unit)', () => {
  it('the next cursor is read from the Link header, wherever rel=next sits', () => {
    const next = '<https://a.commerce.test/admin/api/2025-04/orders.json?limit=50&page_info=NEXT123>; rel="next"';
    const prev = '<https://a.commerce.test/admin/api/2025-04/orders.json?limit=50&page_info=PREV9>; rel="previous"';
    assert.equal(nextPageInfo(next), 'NEXT123');
    assert.equal(nextPageInfo(`${prev}, ${next}`), 'NEXT123');
    assert.equal(nextPageInfo(prev), null);
    assert.equal(nextPageInfo(undefined), null);
    assert.equal(nextPageInfo('garbage'), null);
  });

  it('the call-limit header is read as used/limit', () => {
    assert.deepEqual(parseCallLimit('32/40', 5), { used: 32, limit: 40, at: 5 });
    assert.equal(parseCallLimit('nonsense'), null);
    assert.equal(parseCallLimit(undefined), null);
  });

  it('a nearly full bucket delays the next call by its leak time; a leaked or roomy one does not', () => {
    assert.equal(throttleDelayMs({ used: 10, limit: 40, at: 0 }, 0), 0);
    assert.equal(throttleDelayMs({ used: 40, limit: 40, at: 0 }, 0), 1000);
    assert.equal(throttleDelayMs({ used: 40, limit: 40, at: 0 }, 1000), 0);
    assert.equal(throttleDelayMs(undefined), 0);
  });

  it('Retry-After is read as decimal seconds or an HTTP date, 1 s when absent', () => {
    assert.equal(retryAfterMs('2.0'), 2000);
    assert.equal(retryAfterMs('0.25'), 250);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 7_000), 3000);
    assert.equal(retryAfterMs(undefined), 1000);
  });

  it('a shop domain is a bare lowercase host name', () => {
    for (const ok of ['acme.commerce.test', 'a-b.c.commerce.test', 'x1.example']) assert.equal(isShopDomain(ok), true, ok);
    for (const bad of [
      'https://acme.commerce.test',
      'acme.commerce.test/admin',
      'acme.commerce.test:443',
      'Acme.commerce.test',
      'acme',
      '-a.commerce.test',
      'a..b',
      'acme.commerce.test.',
      'a b.test',
      'user@acme.test',
      '',
    ])
      assert.equal(isShopDomain(bad), false, bad);
  });
});
