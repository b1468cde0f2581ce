import assert from 'node:assert/strict';
import { target } from '../../../src/clients/sitePlatform/pools';

describe('site platform keep-alive pools', () => {
  // undici's top-level request(url) sends new URL(url)'s pathname and search to new URL(url)'s origin.
  const urls = [
    'https://api.example.test/v2/sites/abc',
    'https://api.example.test/v2/collections/c1/items?limit=25&offset=0',
    'http://127.0.0.1:8080/beta/sites/s%2F1/pages?localeId=x%20y',
    'https://api.example.test',
    'https://API.Example.test:443/v2/sites',
    'https://api.example.test/v2/sites/a b?q="x"',
    "https://api.example.test/v2/sites?q=it's",
    'https://api.example.test/v2/sites/./x/../y',
    'https://api.example.test/v2/sites/%2e%2E/y',
    'https://api.example.test/v2/sites/é?q=ü',
    'https://api.example.test/v2/sites/x#fragment',
    'https://api.example.test/v2/sites?',
    'https://api.example.test/v2/sites?a=1?b=2',
    'https://user:secret@api.example.test/v2/sites',
  ];

  for (const url of urls) {
    it(`sends what request(url) sends: ${url}`, () => {
      const parsed = new URL(url);
      const { pool, path } = target(url);
      assert.equal(path, `${parsed.pathname}${parsed.search}`);
      assert.equal(target(parsed.href).pool, pool, 'one pool per origin, however the URL is spelled');
    });
  }

  it('keeps one pool per origin and reuses it', () => {
    const a = target('https://one.example.test/v2/a').pool;
    assert.equal(target('https://one.example.test/v2/b?x=1').pool, a);
    assert.notEqual(target('https://two.example.test/v2/a').pool, a);
  });
});
