import type { MxRecord } from 'node:dns';
import { parseDkimRecord } from '../dkim/record';
import { RECORD_NOT_FOUND, VALUE_DIFFERS } from './verification';

export const MORE_THAN_ONE_SPF = 'more than one SPF record';

export type RecordCheck = { verified: true } | { verified: false; reason: string };

const verified: RecordCheck = { verified: true };
const failed = (reason: string): RecordCheck => ({ verified: false, reason });
const sameHost = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/**
 * A DKIM key record matches when one TXT record there publishes our public key: `p=` equal to it (whitespace ignored),
 * `k=` absent or `rsa`, `v=` absent or `DKIM1` (RFC 6376 §3.6.1). An empty `p=` is a revoked key.
 */
export function checkDkimRecord(records: string[], publicKey: string): RecordCheck {
  if (records.length === 0) return failed(RECORD_NOT_FOUND);
  const ours = records.some((record) => {
    const tags = parseDkimRecord(record);
    return tags.get('p') === publicKey && (tags.get('k') ?? 'rsa').toLowerCase() === 'rsa' && (tags.get('v') ?? 'DKIM1') === 'DKIM1';
  });
  return ours ? verified : failed(VALUE_DIFFERS);
}

/** The return path's MX matches when every MX record there names the return-path domain: bounces all reach us. */
export function checkReturnPathMx(records: MxRecord[], returnPathDomain: string): RecordCheck {
  if (records.length === 0) return failed(RECORD_NOT_FOUND);
  return records.every((mx) => sameHost(mx.exchange, returnPathDomain)) ? verified : failed(VALUE_DIFFERS);
}

/**
 * The return path's SPF matches when there is exactly one SPF record (two are a permanent error, RFC 7208 §4.5) and it
 * includes the return-path domain's policy, which lists the relay's addresses.
 */
export function checkReturnPathSpf(records: string[], returnPathDomain: string): RecordCheck {
  const spf = records.filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));
  if (spf.length === 0) return failed(RECORD_NOT_FOUND);
  if (spf.length > 1) return failed(MORE_THAN_ONE_SPF);
  const includes = spf[0]
    .trim()
    .split(/\s+/)
    .some((term) => /^\+?include:/i.test(term) && sameHost(term.slice(term.indexOf(':') + 1), returnPathDomain));
  return includes ? verified : failed(VALUE_DIFFERS);
}

/**
 * The tracking host matches when its CNAME names the service's tracking host itself (a chain through another name
 * is not followed: the operator's TLS set-up is for this one).
 */
export function checkTrackingCname(records: string[], target: string): RecordCheck {
  if (records.length === 0) return failed(RECORD_NOT_FOUND);
  return records.some((name) => sameHost(name, target)) ? verified : failed(VALUE_DIFFERS);
}

/** `_dmarc.<domain>` and then each parent's `_dmarc` down to two labels, nearest first: where a DMARC policy may live. */
export function dmarcNames(domain: string): string[] {
  const labels = domain.split('.');
  const names: string[] = [];
  for (let i = 0; labels.length - i >= 2; i++) names.push(`_dmarc.${labels.slice(i).join('.')}`);
  return names;
}

/**
 * A DMARC policy covers the domain when `_dmarc.<domain>` or a parent's `_dmarc` holds a TXT record starting
 * `v=DMARC1` (RFC 7489 §6.6.3 falls back to the organizational domain; a walk up the tree is how DMARCbis finds it).
 * `found` holds each name's TXT records. Any policy counts: p=none is the recommended start.
 */
export function checkDmarc(found: string[][]): RecordCheck {
  return found.some((records) => records.some(isDmarc)) ? verified : failed(RECORD_NOT_FOUND);
}

const isDmarc = (record: string) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(record.trim());
