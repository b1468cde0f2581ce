import { isIPv4, isIPv6 } from 'node:net';

/** Why an address is not a public unicast one (page fetches refuse these unless private hosts are allowed). */
export type BlockedAddressKind =
  'unspecified' | 'loopback' | 'private' | 'link_local' | 'cgnat' | 'unique_local' | 'multicast' | 'reserved' | 'invalid';

type Range = [prefix: number[], bits: number, kind: BlockedAddressKind];

const V4_RANGES: Range[] = [
  [[0, 0, 0, 0], 8, 'unspecified'], // "this network"
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'cgnat'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link_local'], // also cloud metadata endpoints (169.254.169.254)
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'],
  [[192, 0, 2, 0], 24, 'reserved'],
  [[192, 88, 99, 0], 24, 'reserved'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'],
  [[198, 51, 100, 0], 24, 'reserved'],
  [[203, 0, 113, 0], 24, 'reserved'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'], // includes the broadcast address
];

const V6_RANGES: Range[] = [
  [v6('::'), 128, 'unspecified'],
  [v6('::1'), 128, 'loopback'],
  [v6('::'), 96, 'reserved'], // deprecated IPv4-compatible addresses
  [v6('64:ff9b:1::'), 48, 'private'], // local-use NAT64
  [v6('100::'), 64, 'reserved'], // discard-only
  [v6('2001::'), 32, 'reserved'], // Teredo: hides an arbitrary IPv4 address
  [v6('2001:db8::'), 32, 'reserved'],
  [v6('fc00::'), 7, 'unique_local'],
  [v6('fe80::'), 10, 'link_local'],
  [v6('fec0::'), 10, 'private'], // deprecated site-local
  [v6('ff00::'), 8, 'multicast'],
];

/** IPv6 prefixes that carry an IPv4 address: the embedded address decides (a v4-mapped loopback is loopback). */
const V4_EMBEDDING: Array<[prefix: number[], bits: number, offset: number]> = [
  [v6('::ffff:0:0'), 96, 12], // IPv4-mapped
  [v6('64:ff9b::'), 96, 12], // well-known NAT64 prefix
  [v6('2002::'), 16, 2], // 6to4
];

/**
 * Classifies an IP address (v4, v6 with or without brackets or a zone, v4-mapped v6): null for a public unicast
 * address, else the reason it must not be fetched. Anything that is not an IP address is 'invalid'.
 */
export function blockedAddressKind(address: string): BlockedAddressKind | null {
  const ip = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(ip)) return classify(ip.split('.').map(Number), V4_RANGES);
  if (!isIPv6(ip)) return 'invalid';
  const bytes = v6(ip);
  for (const [prefix, bits, offset] of V4_EMBEDDING) {
    if (inPrefix(bytes, prefix, bits)) return classify(bytes.slice(offset, offset + 4), V4_RANGES);
  }
  return classify(bytes, V6_RANGES);
}

export function isBlockedAddress(address: string): boolean {
  return blockedAddressKind(address) !== null;
}

function classify(bytes: number[], ranges: Range[]): BlockedAddressKind | null {
  for (const [prefix, bits, kind] of ranges) if (inPrefix(bytes, prefix, bits)) return kind;
  return null;
}

function inPrefix(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[i / 8] & mask) !== (prefix[i / 8] & mask)) return false;
  }
  return true;
}

/** The 16 bytes of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part read as two groups). */
function v6(ip: string): number[] {
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').flatMap(group) : []);
  const left = groups(head);
  const right = groups(tail);
  const middle = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...middle, ...right].flatMap((g) => [g >> 8, g & 0xff]);
}

function group(text: string): number[] {
  if (!text.includes('.')) return [parseInt(text, 16)];
  const [a, b, c, d] = text.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
}
