import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { blockedAddressKind } from './privateAddress';

/** The error code a refused resolution carries, so the fetch can tell it from a network failure. */
export const BLOCKED_HOST_CODE = 'EWORKYARD_BLOCKED_HOST';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for socket connects that refuses a host when any of its addresses is not public. Checking at
 * connect time (not before the request) means a DNS answer that changes between check and connect cannot slip a
 * private address through.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const blocked = addresses.map((a) => blockedAddressKind(a.address)).find((kind) => kind !== null);
    if (blocked) {
      const refused: NodeJS.ErrnoException & { kind?: string } = new Error(
        `${hostname} resolves to a ${blocked.replace('_', '-')} address`,
      );
      refused.code = BLOCKED_HOST_CODE;
      refused.kind = blocked;
      return callback(refused, []);
    }
    if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
