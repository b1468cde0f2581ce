/**
 * One spelling per page, so the forms ledger, the collector and callers name a page alike. The rules are written out
 * in PATH_RULES_DOC (docs.ts); normalizePath answers null for anything that is not a page path of a website.
 */

export const MAX_PATH_LENGTH = 2048;

// Escapes that stay escaped: decoding them would change where the path splits or what it means.
const KEPT_ESCAPES = new Set(['%2F', '%3F', '%23', '%25']);
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The site-absolute, canonical form of a page path or page URL; null when it is not one. */
export function normalizePath(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const raw = pathPartOf(input.trim());
  if (raw === null) return null;
  const decoded = decodePercent(raw.split(/[?#]/, 1)[0]);
  if (decoded === null || CONTROL.test(decoded)) return null;
  const path = withoutDotSegments(decoded.split('/').filter((segment) => segment !== ''));
  return path.length > MAX_PATH_LENGTH ? null : path;
}

/** The path (with query and fragment) of an http(s) URL, or the input itself when it has no scheme. */
function pathPartOf(input: string): string | null {
  if (input === '' || input.includes('\\')) return null;
  if (!SCHEME.test(input)) return input;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // The WHATWG parser percent-encodes non-ASCII; decodePercent brings it back, as for a bare path.
  return url.pathname;
}

/** Decodes every escape but the kept ones (upper-cased); null on a malformed escape or bytes that are not UTF-8. */
function decodePercent(path: string): string | null {
  if (/%(?![0-9a-f]{2})/i.test(path)) return null;
  try {
    return path.replace(/(?:%[0-9a-f]{2})+/gi, (run) =>
      run
        .toUpperCase()
        .split(/(%2F|%3F|%23|%25)/)
        .map((part) => (KEPT_ESCAPES.has(part) ? part : decodeURIComponent(part)))
        .join(''),
    );
  } catch {
    return null;
  }
}

/** `/a/./b/../c` → `/a/c`, as a browser resolves it; `..` above the root stays at the root. */
function withoutDotSegments(segments: string[]): string {
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === '.') continue;
    if (segment === '..') kept.pop();
    else kept.push(segment);
  }
  return `/${kept.join('/')}`;
}
