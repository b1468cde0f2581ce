import { lookupCname } from './cnameLookup';
import type { DnsLookupOptions } from './dnsQuery';
import { lookupMx } from './mxLookup';
import {
  checkDkimRecord,
  checkDmarc,
  checkReturnPathMx,
  checkReturnPathSpf,
  checkTrackingCname,
  dmarcNames,
  type RecordCheck,
} from './recordChecks';
import type { DomainRecord } from './records';
import { lookupTxt } from './txtLookup';
import { checkRecords } from './verification';

/** The longest name DNS carries (RFC 1035, in text form). */
const MAX_DNS_NAME = 253;
export const NAME_TOO_LONG = `record name longer than ${MAX_DNS_NAME} characters`;

/** A retiring key's record may already be gone: it is not checked. */
export const isChecked = (record: DomainRecord) => !(record.ref.kind === 'dkim' && record.ref.state === 'retiring');

/**
 * Looks every checked record up at once and judges each. Any lookup that fails (SERVFAIL, REFUSED, timeout) rejects
 * the whole with its DnsLookupError: a verification records all outcomes or none.
 */
export async function checkDomainRecords(
  records: DomainRecord[],
  domain: string,
  options: DnsLookupOptions,
): Promise<Map<DomainRecord, RecordCheck>> {
  const checked = records.filter(isChecked);
  const results = await Promise.all(checked.map((record) => checkOne(record, domain, options)));
  return new Map(checked.map((record, i) => [record, results[i]]));
}

async function checkOne(record: DomainRecord, domain: string, options: DnsLookupOptions): Promise<RecordCheck> {
  if (record.name.length > MAX_DNS_NAME) return { verified: false, reason: NAME_TOO_LONG };
  const ref = record.ref;
  if (ref.kind === 'ownership') return checkRecords(await lookupTxt(record.name, options), ref.expected);
  if (ref.kind === 'dkim') return checkDkimRecord(await lookupTxt(record.name, options), ref.publicKey);
  switch (ref.record) {
    case 'return_path_mx':
      return checkReturnPathMx(await lookupMx(record.name, options), ref.target ?? '');
    case 'return_path_spf':
      return checkReturnPathSpf(await lookupTxt(record.name, options), ref.target ?? '');
    case 'dmarc':
      return checkDmarc(await Promise.all(dmarcNames(domain).map((name) => lookupTxt(name, options))));
    case 'tracking_cname':
      return checkTrackingCname(await lookupCname(record.name, options), ref.target ?? '');
  }
}
