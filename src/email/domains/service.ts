import type { Knex } from '../../db/knex';
import { isUniqueViolation } from '../../db/errors';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import type { Page } from '../../http/pagination';
import { newDkimKeyPair } from '../dkim/keyPair';
import { detailsOf, domainNotFound, type DomainDeps, type DomainDetails } from './details';
import { insertNewKey } from './dkimKeys';
import { forgetAccountDomains } from './sendingState';
import * as store from './store';
import type { DomainRow } from './store';
import { newVerificationToken } from './verification';

export type { DomainRow };
export type { DomainRecord } from './records';
export { domainDetails, domainNotFound, getDomain, type DomainDeps, type DomainDetails } from './details';
export {
  domainSendingState,
  domainTrackingState,
  forgetAccountDomains,
  isDomainVerified,
  type DomainSendingState,
  type DomainTrackingState,
} from './sendingState';
export { updateTracking, type TrackingChange } from './tracking';
export { DNS_LOOKUP_TIMEOUT_MS, verifyDomain } from './verify';
export { rotateDkimKey } from './rotation';

/**
 * Adds the domain with its first DKIM key (pending) in one transaction when `secretHashKey` is given; without it the
 * key is made on the domain's first read, verify or rotation.
 */
export async function createDomain(db: Knex, accountId: string, name: string, secretHashKey?: string): Promise<DomainRow> {
  const pair = secretHashKey ? await newDkimKeyPair() : undefined;
  try {
    return await db.transaction(async (trx) => {
      const domain = await store.insertDomain(trx, accountId, name, newVerificationToken());
      if (pair && secretHashKey) await insertNewKey(trx, secretHashKey, domain, pair);
      return domain;
    });
  } catch (err) {
    if (isUniqueViolation(err, store.NAME_CONSTRAINT)) {
      throw new ApiError(409, 'domain_exists', `${name} is already a domain of this account`, { details: { field: 'name' } });
    }
    throw err;
  }
}

export async function addDomain(deps: DomainDeps, accountId: string, name: string): Promise<DomainDetails> {
  const domain = await createDomain(deps.db, accountId, name, deps.secretHashKey);
  return (await detailsOf(deps, accountId, [domain]))[0];
}

export async function listDomains(deps: DomainDeps, accountId: string, page: Page): Promise<{ rows: DomainDetails[]; total: number }> {
  const { rows, total } = await store.listDomains(deps.db, accountId, page);
  return { rows: await detailsOf(deps, accountId, rows), total };
}

export async function deleteDomain(db: Knex, accountId: string, id: string): Promise<void> {
  const deleted = isUuid(id) && (await store.deleteDomain(db, accountId, id));
  forgetAccountDomains(accountId);
  if (!deleted) throw domainNotFound();
}
