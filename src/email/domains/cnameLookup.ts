import { queryDns, type DnsLookupOptions } from './dnsQuery';

/** The CNAME target(s) at a name, or `[]` when the name or its CNAME does not exist. */
export function lookupCname(name: string, options: DnsLookupOptions): Promise<string[]> {
  return queryDns(options, (resolver) => resolver.resolveCname(name), []);
}
