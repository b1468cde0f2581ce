// What a span may say about a URL. Capability URLs carry their secret in the path (media links, the site-platform
// webhook receiver's url token, a customer's webhook URL such as Slack's) and query strings carry tokens (an SSE job
// token, an OAuth code), so spans keep the origin and the path with token-like segments replaced, never the query.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_CHARS = /^[A-Za-z0-9_~.+=%-]+$/;
export const REDACTED_SEGMENT = '{redacted}';

/** A path segment that could be a secret: 20+ token characters (a UUID is an id, kept), or 12+ mixing letters and digits. */
function looksSecret(segment: string): boolean {
  if (!TOKEN_CHARS.test(segment) || UUID.test(segment)) return false;
  if (segment.length >= 20) return true;
  return segment.length >= 12 && /[A-Za-z]/.test(segment) && /\d/.test(segment);
}

/** The path without its query, token-like segments replaced. */
export function redactPath(pathWithQuery: string): string {
  const path = pathWithQuery.split(/[?#]/, 1)[0];
  return path
    .split('/')
    .map((segment) => (looksSecret(segment) ? REDACTED_SEGMENT : segment))
    .join('/');
}

/** Origin and redacted path of an absolute URL (user info dropped); an unparsable one says so. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${redactPath(parsed.pathname)}`;
  } catch {
    return '(unparsable url)';
  }
}
