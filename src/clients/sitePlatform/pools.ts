import { Pool } from 'undici';

/** Origins kept at once; tests start many simulators, production talks to one API origin (and the auth origin). */
const MAX_ORIGINS = 16;
const pools = new Map<string, Pool>();

// A path the WHATWG URL parser would send unchanged: no character it percent-encodes or rewrites (space, quotes,
// backslash, <>`{}, non-ASCII), no dot segment it would resolve and no empty query it would drop. Anything else
// takes the parser's spelling.
const VERBATIM_PATH = /^\/[A-Za-z0-9\-_~!$&()*+,;=:@/%?.]*$/;
const REWRITTEN = /\/\.|%2e|\?$/i;

/**
 * The keep-alive pool of the URL's origin and the request target to send on it: the bytes undici's top-level
 * request(url) would send, without parsing the URL and looking the origin up in the global agent on every call.
 */
export function target(url: string): { pool: Pool; path: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  let origin = slash < 0 ? url : url.slice(0, slash);
  let path = slash < 0 ? '/' : url.slice(slash);
  if (!VERBATIM_PATH.test(path) || REWRITTEN.test(path) || origin.includes('@') || origin !== origin.toLowerCase()) {
    const parsed = new URL(url);
    origin = parsed.origin;
    path = `${parsed.pathname}${parsed.search}`;
  }
  let pool = pools.get(origin);
  if (!pool) {
    if (pools.size >= MAX_ORIGINS) {
      const [oldest, evicted] = pools.entries().next().value!;
      pools.delete(oldest);
      void evicted.close().catch(() => {});
    }
    pools.set(origin, (pool = new Pool(origin)));
  }
  return { pool, path };
}
