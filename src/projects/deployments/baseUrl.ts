import { isIP } from 'node:net';
import type { Config } from '../../config';
import { blockedAddressKind } from '../../providers/privateAddress';

export const MAX_BASE_URL_LENGTH = 2048;

export type UrlPolicy = Pick<Config, 'FETCH_ALLOW_PRIVATE_HOSTS' | 'NODE_ENV'>;

export const BASE_URL_RULE =
  `an absolute https URL of at most ${MAX_BASE_URL_LENGTH} characters, without credentials, query or fragment, on a ` +
  'public host; revalidations go to `<base_url>/api/revalidate`. http and loopback or private hosts are accepted only when the service runs ' +
  'with FETCH_ALLOW_PRIVATE_HOSTS (tests and the sandbox), and http only for a loopback host outside NODE_ENV=production.';

const isLoopbackHost = (hostname: string) =>
  hostname === 'localhost' || hostname.endsWith('.localhost') || blockedAddressKind(hostname) === 'loopback';

/**
 * The deployment's base URL normalised (no trailing slash), or why it is refused. Host names are checked again when
 * a post connects (publicOnlyLookup), so a DNS answer that changes later cannot slip a private address in.
 */
export function checkBaseUrl(raw: string, policy: UrlPolicy): { url: string } | { problem: string } {
  if (raw.length > MAX_BASE_URL_LENGTH) return { problem: `must be at most ${MAX_BASE_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'must be an absolute URL' };
  }
  if (url.username || url.password) return { problem: 'must not carry credentials' };
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) return { problem: 'must not carry a query or a fragment' };
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const loopback = isLoopbackHost(hostname);
  const allowPrivate = policy.FETCH_ALLOW_PRIVATE_HOSTS;
  if (url.protocol === 'http:') {
    if (!(allowPrivate && loopback && policy.NODE_ENV !== 'production')) {
      return { problem: 'must use https (http is accepted only for a loopback host in tests and the sandbox)' };
    }
  } else if (url.protocol !== 'https:') {
    return { problem: 'must use https' };
  }
  if (!allowPrivate) {
    if (loopback) return { problem: 'must not point at a loopback host' };
    const kind = isIP(hostname) ? blockedAddressKind(hostname) : null;
    if (kind) return { problem: `must not point at a ${kind.replace('_', '-')} address` };
  }
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** Where a deployment receives revalidations. */
export const revalidateUrl = (baseUrl: string) => `${baseUrl}/api/revalidate`;
