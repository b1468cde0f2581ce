import { Resolver } from 'node:dns/promises';

/** The lookup could not say: the server failed (SERVFAIL, REFUSED), did not answer in time, or could not be reached. */
export class DnsLookupError extends Error {
  constructor(readonly dnsCode: string) {
    super(`DNS lookup failed (${dnsCode})`);
    this.name = 'DnsLookupError';
  }
}

/** "No such name" and "no record of this type at this name" are answers, not failures: the record is simply not published. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

export interface DnsLookupOptions {
  /** `Resolver.setServers` entries; the system's resolvers when absent. */
  servers?: string[];
  /** The whole lookup's deadline, retries included. */
  timeoutMs: number;
}

/**
 * One query through a fresh resolver (so no answer is cached across verifications); `absent` when the name or its
 * records of the type do not exist. c-ares doubles its per-try timeout on each retry, so the overall deadline is
 * enforced here and the query cancelled when it passes.
 */
export async function queryDns<T>(options: DnsLookupOptions, query: (resolver: Resolver) => Promise<T>, absent: T): Promise<T> {
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
    return await Promise.race([query(resolver), deadline]);
  } catch (err) {
    if (err instanceof DnsLookupError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    if (ABSENT.has(code)) return absent;
    throw new DnsLookupError(code === 'ECANCELLED' ? 'ETIMEOUT' : code);
  } finally {
    clearTimeout(timer);
  }
}
