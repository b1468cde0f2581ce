import { BlockList, isIP } from 'node:net';

/**
 * Matching client addresses against IPv4/IPv6 addresses and CIDR ranges: email keys' IP allowlists and TRUST_PROXY's
 * proxy list. Entries are normalised on write (`10.0.0.7/8` → `10.0.0.0/8`, IPv6 lower-case compressed) so what a
 * list shows is what it matches.
 */

export type IpEntryResult = { ok: true; entry: string } | { ok: false; message: string };

/** Validates and normalises one entry: an address (`1.2.3.4`, `2001:db8::1`) or a range (`10.0.0.0/8`, `2001:db8::/32`). */
export function normaliseIpEntry(raw: string): IpEntryResult {
  const text = raw.trim();
  const [address, prefixText, extra] = text.split('/');
  if (extra !== undefined) return { ok: false, message: `${JSON.stringify(raw)} is not an IP address or CIDR range` };
  const version = (address.includes('%') ? 0 : isIP(address)) as 0 | 4 | 6; // no zone ids: they name a local link
  if (version === 0) return { ok: false, message: `${JSON.stringify(raw)} is not an IPv4 or IPv6 address` };
  const bits = version === 4 ? 32 : 128;
  if (prefixText !== undefined && (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits)) {
    return { ok: false, message: `${JSON.stringify(raw)}: the prefix length must be 0 to ${bits}` };
  }
  const prefix = prefixText === undefined ? undefined : Number(prefixText);
  const mapped = version === 6 ? mappedV4(toBytes(address, 6), prefix) : null;
  if (mapped) return normaliseIpEntry(mapped);
  const entry = canonical(address, version, prefix ?? bits);
  return { ok: true, entry: prefix === undefined ? entry : `${entry}/${prefix}` };
}

/** `::ffff:a.b.c.d[/96+n]` is the IPv4 `a.b.c.d[/n]`: stored (and matched) as IPv4, like the sources it stands for. */
function mappedV4(bytes: number[], prefix: number | undefined): string | null {
  const isMapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (!isMapped || (prefix !== undefined && prefix < 96)) return null;
  const v4 = bytes.slice(12).join('.');
  return prefix === undefined ? v4 : `${v4}/${prefix - 96}`;
}

/** The network address of `address/prefix` in canonical text. */
function canonical(address: string, version: 4 | 6, prefix: number): string {
  const bytes = toBytes(address, version);
  for (let bit = prefix; bit < bytes.length * 8; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  return version === 4 ? bytes.join('.') : formatV6(bytes);
}

function toBytes(address: string, version: 4 | 6): number[] {
  if (version === 4) return address.split('.').map(Number);
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  let left = groups(head);
  let right = groups(tail);
  const expand = (list: string[]) => list.flatMap((g) => (g.includes('.') ? v4Groups(g) : [g]));
  left = expand(left);
  right = expand(right);
  const all = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

function v4Groups(dotted: string): string[] {
  const [a, b, c, d] = dotted.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/** RFC 5952 text: lower case, leading zeros dropped, the longest run (≥ 2) of zero groups as `::`. */
function formatV6(bytes: number[]): string {
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i] << 8) | bytes[2 * i + 1]);
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.length < 2) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** A compiled allowlist. An IPv4-mapped IPv6 source (`::ffff:1.2.3.4`) is matched as the IPv4 address it carries. */
export class IpAllowlist {
  private readonly list = new BlockList();

  constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix] = entry.split('/');
      const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.list.addAddress(address, type);
      else this.list.addSubnet(address, Number(prefix), type);
    }
  }

  allows(source: string): boolean {
    const ip = unmapV4(source.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
    const version = isIP(ip);
    if (version === 0) return false;
    return this.list.check(ip, version === 4 ? 'ipv4' : 'ipv6');
  }
}

function unmapV4(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return mapped ? mapped[1] : ip;
}
