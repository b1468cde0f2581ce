import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import * as dkimStore from '../dkim/store';
import * as checksStore from './checksStore';
import { detailsOf, domainDetails, domainNotFound, getDomain, type DomainDeps, type DomainDetails } from './details';
import { DnsLookupError } from './dnsQuery';
import { parseDnsServers } from './dnsServers';
import { checkDomainRecords } from './recordLookups';
import type { RecordCheck } from './recordChecks';
import { RETIRING_KEY_DAYS, type DomainRecord } from './records';
import { forgetAccountDomains } from './sendingState';
import * as store from './store';

/** One record's lookup at verification, retries included; all records are looked up at once. */
export const DNS_LOOKUP_TIMEOUT_MS = 5_000;

/**
 * Looks every record of the domain up and records each outcome: ownership, each pending or active DKIM key, the
 * return path's MX and SPF, DMARC. A record found with our value is `verified`; none (`record not found`) or another
 * value (`value differs`) is `failed` — also when it was verified before (a removed ownership record stops all sends,
 * a removed DKIM record stops live sends). A pending key whose record verified becomes the active (signing) key and the
 * key it replaces starts retiring. A DNS failure (SERVFAIL, REFUSED, timeout, unreachable server) says nothing about
 * the records, so it is 502 `dns_lookup_failed` and changes nothing: a verified domain keeps sending through a
 * resolver outage.
 */
export async function verifyDomain(deps: DomainDeps, accountId: string, id: string): Promise<DomainDetails> {
  const [before] = await detailsOf(deps, accountId, [await getDomain(deps.db, accountId, id)]);
  const results = await lookUp(deps.config, before);
  const found = await deps.db.transaction(async (trx) => {
    const domain = await store.lockDomain(trx, accountId, id);
    if (!domain) return false;
    await recordOutcomes(trx, accountId, id, results);
    await dkimStore.deleteExpiredKeys(trx, id, RETIRING_KEY_DAYS);
    return true;
  });
  forgetAccountDomains(accountId);
  if (!found) throw domainNotFound();
  return domainDetails(deps, accountId, id);
}

async function lookUp(config: DomainDeps['config'], details: DomainDetails): Promise<Map<DomainRecord, RecordCheck>> {
  const servers = dnsServers(config);
  try {
    return await checkDomainRecords(details.records, details.domain.name, { servers, timeoutMs: DNS_LOOKUP_TIMEOUT_MS });
  } catch (err) {
    if (!(err instanceof DnsLookupError)) throw err;
    throw new ApiError(
      502,
      'dns_lookup_failed',
      `a DNS lookup for ${details.domain.name} failed (${err.dnsCode}); the domain is unchanged, try again later`,
      {
        details: { dns_error: err.dnsCode },
      },
    );
  }
}

function dnsServers(config: Pick<Config, 'EMAIL_DNS_SERVERS'>): string[] | undefined {
  try {
    return parseDnsServers(config.EMAIL_DNS_SERVERS);
  } catch (err) {
    throw new ApiError(503, 'dns_not_configured', `${(err as Error).message}; fix the server configuration`);
  }
}

/**
 * Writes the outcomes under the domain's lock. Keys are read again there: a rotation that ran meanwhile replaced a
 * pending key, whose outcome then applies to nothing.
 */
async function recordOutcomes(
  trx: Knex.Transaction,
  accountId: string,
  id: string,
  results: Map<DomainRecord, RecordCheck>,
): Promise<void> {
  const keys = new Map((await dkimStore.keysOfDomains(trx, accountId, [id], RETIRING_KEY_DAYS)).map((k) => [k.id, k]));
  const checks: checksStore.CheckOutcome[] = [];
  for (const [record, result] of results) {
    const outcome = { verified: result.verified, error: result.verified ? null : result.reason };
    const ref = record.ref;
    if (ref.kind === 'ownership') {
      await store.recordCheck(trx, accountId, id, outcome);
    } else if (ref.kind === 'check') {
      checks.push({ record: ref.record, target: ref.target, ...outcome });
    } else if (keys.has(ref.keyId)) {
      await dkimStore.recordKeyCheck(trx, ref.keyId, outcome);
      if (result.verified && keys.get(ref.keyId)?.state === 'pending') await dkimStore.activateKey(trx, id, ref.keyId);
    }
  }
  await checksStore.recordChecks(trx, accountId, id, checks);
}
