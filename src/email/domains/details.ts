import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import * as dkimStore from '../dkim/store';
import * as checksStore from './checksStore';
import { trackingCnameTarget } from '../tracking/links';
import { ensureDkimKeys } from './dkimKeys';
import { dkimStatus, domainRecords, RETIRING_KEY_DAYS, type DomainRecord, type RecordStatus } from './records';
import * as store from './store';
import type { DomainRow } from './store';

export interface DomainDeps {
  db: Knex;
  secretHashKey: string;
  /** PUBLIC_APP_URL: what a tracking host's CNAME names (absent: no tracking host record is listed). */
  config: Pick<Config, 'EMAIL_DNS_SERVERS' | 'EMAIL_RETURN_PATH_DOMAIN'> & Partial<Pick<Config, 'PUBLIC_APP_URL'>>;
}

/** A domain with every DNS record it needs and each one's last check. */
export interface DomainDetails {
  domain: DomainRow;
  records: DomainRecord[];
  dkimStatus: RecordStatus;
}

export const domainNotFound = () => new ApiError(404, 'domain_not_found', 'domain not found');

/** The domain; 404 `domain_not_found` when the id is malformed, missing or another account's. */
export async function getDomain(db: Knex, accountId: string, id: string): Promise<DomainRow> {
  const row = isUuid(id) ? await store.findDomain(db, accountId, id) : undefined;
  if (!row) throw domainNotFound();
  return row;
}

/** The domains with their records (giving a DKIM key to any domain that has none yet). */
export async function detailsOf(deps: DomainDeps, accountId: string, domains: DomainRow[]): Promise<DomainDetails[]> {
  await ensureDkimKeys(deps, accountId, domains);
  const ids = domains.map((d) => d.id);
  const [keys, checks] = await Promise.all([
    dkimStore.keysOfDomains(deps.db, accountId, ids, RETIRING_KEY_DAYS),
    checksStore.checksOfDomains(deps.db, accountId, ids),
  ]);
  return domains.map((domain) => {
    const own = keys.filter((k) => k.domain_id === domain.id);
    const ownChecks = checks.filter((c) => c.domain_id === domain.id);
    return {
      domain,
      records: domainRecords(domain, own, ownChecks, deps.config.EMAIL_RETURN_PATH_DOMAIN, trackingCnameTarget(deps.config.PUBLIC_APP_URL)),
      dkimStatus: dkimStatus(own),
    };
  });
}

export async function domainDetails(deps: DomainDeps, accountId: string, id: string): Promise<DomainDetails> {
  return (await detailsOf(deps, accountId, [await getDomain(deps.db, accountId, id)]))[0];
}
