import type { MxRecord } from 'node:dns';
import { queryDns, type DnsLookupOptions } from './dnsQuery';

/** The MX records at a name, or `[]` when the name or its MX records do not exist. */
export function lookupMx(name: string, options: DnsLookupOptions): Promise<MxRecord[]> {
  return queryDns(options, (resolver) => resolver.resolveMx(name), []);
}
