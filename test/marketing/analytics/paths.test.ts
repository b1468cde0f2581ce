import assert from 'node:assert/strict';
import { normalizePath } from '../../../src/marketing/analytics/paths';

const TABLE: Array<[unknown, string | null, string]> = [
  ['/', '/', 'the root stays the root'],
  ['/blog/post/', '/blog/post', 'trailing slash removed'],
  ['/blog/post?utm_source=x&b=2', '/blog/post', 'query string removed'],
  ['/blog/post#comments', '/blog/post', 'fragment removed'],
  ['/?q=1#top', '/', 'the root with a query and fragment'],
  ['https://www.example.com/blog/post/?a=1#x', '/blog/post', 'scheme and host stripped from a URL'],
  ['http://user:pw@example.com:8080', '/', 'a URL with no path is the root'],
  ['HTTPS://Example.COM/Pricing', '/Pricing', 'path case is kept'],
  ['//blog///post//', '/blog/post', 'repeated slashes collapse'],
  ['blog/post', '/blog/post', 'a relative path is made site-absolute'],
  ['  /pricing  ', '/pricing', 'surrounding blanks trimmed'],
  ['/a/./b/../c', '/a/c', 'dot segments resolved'],
  ['/../../a', '/a', 'never above the root'],
  ['/caf%C3%A9', '/café', 'percent escapes decoded as UTF-8'],
  ['/café', '/café', 'a decoded path is already canonical'],
  ['https://example.com/caf%c3%a9/', '/café', 'a URL path decoded alike'],
  ['/a%20b', '/a b', 'an encoded space decoded'],
  ['/a%2fb', '/a%2Fb', 'an encoded slash stays encoded (upper-cased)'],
  ['/100%25', '/100%25', 'an encoded percent stays encoded'],
  ['/q%3Fx%23y', '/q%3Fx%23y', 'encoded ? and # stay encoded'],
  ['/%7Euser', '/~user', 'an unreserved escape decoded'],
  ['', null, 'blank'],
  ['   ', null, 'blank after trimming'],
  ['/a%zz', null, 'a malformed escape'],
  ['/a%', null, 'a lone percent sign'],
  ['/%C3', null, 'an escape that is not UTF-8'],
  ['/a%0Ab', null, 'an encoded control character'],
  ['/a\\b', null, 'a backslash'],
  ['mailto:a@example.com', null, 'a scheme other than http(s)'],
  ['javascript:alert(1)', null, 'a script URL'],
  ['http://', null, 'an unparseable URL'],
  [`/${'a'.repeat(2048)}`, null, 'longer than 2048 characters'],
  [42, null, 'not a string'],
  [null, null, 'null'],
];

describe('content analytics: page path normalisation', () => {
  for (const [input, expected, rule] of TABLE) {
    it(`${rule}: ${JSON.stringify(input)?.slice(0, 40)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(normalizePath(input), expected);
    });
  }

  it('normalising twice changes nothing', () => {
    for (const [input] of TABLE) {
      const once = normalizePath(input);
      if (once !== null) assert.equal(normalizePath(once), once, String(input));
    }
  });
});
