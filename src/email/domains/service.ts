import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { isUniqueViolation } from '../../db/errors';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import type { Page } from '../../http/pagination';
import { parseDnsServers } from './dnsServers';
import { normaliseDomain } from './name';
import * as store from './store';
import type { DomainRow } from './store';
import { DnsLookupError, lookupTxt } from './txtLookup';
import { checkRecords, newVerificationToken, recordName, recordValue } from './verification';
import { VerifiedDomainCache } from './verifiedCache';

export type { DomainRow };

/** The whole TXT lookup of one verification, retries included. */
export const DNS_LOOKUP_TIMEOUT_MS = 5_000;

const verifiedDomains = new VerifiedDomainCache();

export const domainNotFound = () => new ApiError(404, 'domain_not_found', 'domain not found');

export async function createDomain(db: Knex, accountId: string, name: string): Promise<DomainRow> {
  try {
    return await store.insertDomain(db, accountId, name, newVerificationToken());
  } catch (err) {
    if (isUniqueViolation(err, store.NAME_CONSTRAINT)) {
      throw new ApiError(409, 'domain_exists', `${name} is already a domain of this account`, { details: { field: 'name' } });
    }
    throw err;
  }
}

export const listDomains = (db: Knex, accountId: string, page: Page) => store.listDomains(db, accountId, page);

/** The domain; 404 `domain_not_found` when the id is malformed, missing or another account's. */
export async function getDomain(db: Knex, accountId: string, id: string): Promise<DomainRow> {
  const row = isUuid(id) ? await store.findDomain(db, accountId, id) : undefined;
  if (!row) throw domainNotFound();
  return row;
}

/**
 * Looks up the TXT record and records the outcome: a match is `verified`; no record or another value is `failed`
 * with the reason in `last_check_error` (a verified domain whose record was removed fails too, and sends from it
 * stop). A DNS failure (SERVFAIL, REFUSED, timeout, unreachable server) says nothing about the record, so it is
 * 502 `dns_lookup_failed` and changes nothing: a verified domain keeps sending through a resolver outage.
 */
export async function verifyDomain(db: Knex, config: Pick<Config, 'EMAIL_DNS_SERVERS'>, accountId: string, id: string): Promise<DomainRow> {
  const domain = await getDomain(db, accountId, id);
  const records = await lookupRecords(config, recordName(domain.name));
  const result = checkRecords(records, recordValue(domain.verification_token));
  const row = await store.recordCheck(db, accountId, id, { verified: result.verified, error: result.verified ? null : result.reason });
  verifiedDomains.invalidate(accountId);
  if (!row) throw domainNotFound();
  return row;
}

async function lookupRecords(config: Pick<Config, 'EMAIL_DNS_SERVERS'>, name: string): Promise<string[]> {
  let servers: string[] | undefined;
  try {
    servers = parseDnsServers(config.EMAIL_DNS_SERVERS);
  } catch (err) {
    throw new ApiError(503, 'dns_not_configured', `${(err as Error).message}; fix the server configuration`);
  }
  try {
    return await lookupTxt(name, { servers, timeoutMs: DNS_LOOKUP_TIMEOUT_MS });
  } catch (err) {
    if (!(err instanceof DnsLookupError)) throw err;
    throw new ApiError(
      502,
      'dns_lookup_failed',
      `the DNS lookup of ${name} failed (${err.dnsCode}); the domain is unchanged, try again later`,
      {
        details: { dns_error: err.dnsCode },
      },
    );
  }
}

export async function deleteDomain(db: Knex, accountId: string, id: string): Promise<void> {
  const deleted = isUuid(id) && (await store.deleteDomain(db, accountId, id));
  verifiedDomains.invalidate(accountId);
  if (!deleted) throw domainNotFound();
}

/**
 * Whether `domain` (any case) is a verified sender domain of the account. Runs on every send, so it reads a
 * per-process cache: changes made through this process are seen at once, changes made through another replica
 * within VERIFIED_CACHE_TTL_MS (5 s).
 */
export function isDomainVerified(db: Knex, accountId: string, domain: string): boolean | Promise<boolean> {
  const names = verifiedDomains.names(accountId, () => store.verifiedDomainNames(db, accountId));
  const name = normaliseDomain(domain);
  return names instanceof Set ? names.has(name) : names.then((loaded) => loaded.has(name));
}
