import { Resolver } from 'node:dns/promises';

/** The TXT records at a name (each record's strings joined), or `[]` when the name or its TXT records do not exist. */
export type TxtRecords = string[];

/** The lookup could not say: the server failed (SERVFAIL, REFUSED), did not answer in time, or could not be reached. */
export class DnsLookupError extends Error {
  constructor(readonly dnsCode: string) {
    super(`DNS lookup failed (${dnsCode})`);
    this.name = 'DnsLookupError';
  }
}

/** "No such name" and "no TXT at this name" are answers, not failures: the record is simply not published. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

export interface TxtLookupOptions {
  /** `Resolver.setServers` entries; the system's resolvers when absent. */
  servers?: string[];
  /** The whole lookup's deadline, retries included. */
  timeoutMs: number;
}

/**
 * TXT records of `name` through a fresh resolver (so no answer is cached across verifications). c-ares doubles its
 * per-try timeout on each retry, so the overall deadline is enforced here and the query cancelled when it passes.
 */
export async function lookupTxt(name: string, options: TxtLookupOptions): Promise<TxtRecords> {
  const perTry = Math.max(100, Math.floor(options.timeoutMs / 3));
  const resolver = new Resolver({ timeout: perTry, tries: 2 });
  if (options.servers) resolver.setServers(options.servers);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(new DnsLookupError('ETIMEOUT'));
    }, options.timeoutMs);
  });
  try {
    const records = await Promise.race([resolver.resolveTxt(name), deadline]);
    return records.map((strings) => strings.join(''));
  } catch (err) {
    if (err instanceof DnsLookupError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    if (ABSENT.has(code)) return [];
    throw new DnsLookupError(code === 'ECANCELLED' ? 'ETIMEOUT' : code);
  } finally {
    clearTimeout(timer);
  }
}
