import type { Context } from 'koa';
import { IpAllowlist, normaliseIpEntry } from '../net/ipMatch';

/**
 * Which peers may tell us the client's address (X-Forwarded-For): none (`false`), the `hops` proxies nearest to us
 * whoever they are, or the peers within `proxies` (addresses and CIDR ranges).
 */
export type TrustProxy = false | { hops: number } | { proxies: string[] };

/** The names Express's `trust proxy` takes, as the ranges they stand for. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const MAX_HOPS = 32;

type Parsed = { ok: true; value: TrustProxy } | { ok: false; message: string };

/** TRUST_PROXY as written: unset, empty, `false` or `0`; a hop count such as `1`; or a comma list of addresses, ranges and names. */
export function parseTrustProxy(raw: string | undefined): Parsed {
  const text = (raw ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return { ok: true, value: false };
  if (text === 'true') {
    return {
      ok: false,
      message:
        'true would take X-Forwarded-For from any client; give the number of proxies in front (e.g. 1) or their addresses/CIDR ranges',
    };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= MAX_HOPS ? { ok: true, value: { hops } } : { ok: false, message: `a hop count must be 1 to ${MAX_HOPS}` };
  }
  const proxies: string[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    if (NAMED_RANGES[entry]) {
      proxies.push(...NAMED_RANGES[entry]);
      continue;
    }
    const result = normaliseIpEntry(entry);
    if (!result.ok) {
      return {
        ok: false,
        message: `${result.message}; expected false, a hop count, or a comma list of IP addresses, CIDR ranges, loopback, linklocal, uniquelocal`,
      };
    }
    proxies.push(result.entry);
  }
  return { ok: true, value: { proxies } };
}

/**
 * The client's address: the socket peer, or, when the peer is a trusted proxy, X-Forwarded-For read from the right
 * (the end our own proxies appended to) past every trusted hop. Entries further left were written by the client.
 */
export function clientAddress(peer: string, forwardedFor: string, trust: TrustProxy, trusted: IpAllowlist | null): string {
  if (trust === false) return peer;
  const chain = forwardedFor
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const nearestFirst = [peer, ...chain.reverse()];
  if ('hops' in trust) return nearestFirst[Math.min(trust.hops, nearestFirst.length - 1)];
  let i = 0;
  while (i < nearestFirst.length - 1 && trusted!.allows(nearestFirst[i])) i++;
  return nearestFirst[i];
}

/**
 * Sets `ctx.request.ip` (what allowlists and logs read) from TRUST_PROXY. Koa's own `proxy` flag is on only when
 * TRUST_PROXY is, for X-Forwarded-Proto/Host; a peer outside a proxy list has those headers dropped.
 */
export function clientAddressResolver(trust: TrustProxy) {
  const trusted = trust !== false && 'proxies' in trust ? new IpAllowlist(trust.proxies) : null;
  return function assignClientAddress(ctx: Context): void {
    const peer = ctx.req.socket.remoteAddress ?? '';
    if (trust === false) {
      ctx.request.ip = peer;
      return;
    }
    if (trusted && !trusted.allows(peer)) {
      delete ctx.req.headers['x-forwarded-proto'];
      delete ctx.req.headers['x-forwarded-host'];
    }
    ctx.request.ip = clientAddress(peer, ctx.get('x-forwarded-for'), trust, trusted);
  };
}
