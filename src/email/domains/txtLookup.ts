import { queryDns, type DnsLookupOptions } from './dnsQuery';

export { DnsLookupError } from './dnsQuery';
export type TxtLookupOptions = DnsLookupOptions;

/** The TXT records at a name (each record's strings joined), or `[]` when the name or its TXT records do not exist. */
export type TxtRecords = string[];

export async function lookupTxt(name: string, options: TxtLookupOptions): Promise<TxtRecords> {
  const records = await queryDns(options, (resolver) => resolver.resolveTxt(name), []);
  return records.map((strings) => strings.join(''));
}
