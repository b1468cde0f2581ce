import { isIP } from 'node:net';
import { blockedAddressKind } from '../../providers/privateAddress';

export const MAX_URL_LENGTH = 2048;

const isLoopbackHost = (hostname: string) =>
  hostname === 'localhost' || hostname.endsWith('.localhost') || blockedAddressKind(hostname) === 'loopback';

/**
 * Why `raw` may not receive webhooks, or null when it may: https (http only for a loopback host, and only when
 * FETCH_ALLOW_PRIVATE_HOSTS lets the service reach private hosts: tests and the sandbox), no credentials, and
 * unless private hosts are allowed no loopback, private or otherwise non-public IP literal. Host names are checked
 * again on every delivery, when they resolve (publicOnlyLookup), so a DNS change cannot slip a private address in.
 */
export function webhookUrlProblem(raw: string, allowPrivateHosts: boolean): string | null {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const loopback = isLoopbackHost(hostname);
  if (url.protocol === 'http:') {
    if (!(allowPrivateHosts && loopback)) return 'must use https (http is accepted only for a loopback host in a sandbox)';
  } else if (url.protocol !== 'https:') {
    return 'must use https';
  }
  if (allowPrivateHosts) return null;
  if (loopback) return 'must not point at a loopback host';
  const kind = isIP(hostname) ? blockedAddressKind(hostname) : null;
  if (kind) return `must not point at a ${kind.replace('_', '-')} address`;
  return null;
}
