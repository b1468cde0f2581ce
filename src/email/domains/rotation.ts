import { newDkimKeyPair } from '../dkim/keyPair';
import * as dkimStore from '../dkim/store';
import { detailsOf, domainNotFound, getDomain, type DomainDeps } from './details';
import { insertNewKey } from './dkimKeys';
import { RETIRING_KEY_DAYS, type DomainRecord } from './records';
import { forgetAccountDomains } from './sendingState';
import * as store from './store';

/**
 * A new DKIM key under a new selector, `pending`: the active key keeps signing until the new record verifies (then
 * the new key signs and the old one starts retiring). A key still pending from an earlier rotation never signed
 * anything and is replaced. Answers the new key's record.
 */
export async function rotateDkimKey(deps: DomainDeps, accountId: string, id: string): Promise<DomainRecord> {
  const domain = await getDomain(deps.db, accountId, id);
  const pair = await newDkimKeyPair();
  const key = await deps.db.transaction(async (trx) => {
    const locked = await store.lockDomain(trx, accountId, id);
    if (!locked) return undefined;
    await dkimStore.deleteExpiredKeys(trx, id, RETIRING_KEY_DAYS);
    await dkimStore.deletePendingKeys(trx, id);
    return insertNewKey(trx, deps.secretHashKey, locked, pair);
  });
  forgetAccountDomains(accountId);
  if (!key) throw domainNotFound();
  const [details] = await detailsOf(deps, accountId, [domain]);
  const record = details.records.find((r) => r.ref.kind === 'dkim' && r.ref.keyId === key.id);
  // A verify between the commit and this read cannot remove a pending key; only another rotation can.
  if (!record) throw domainNotFound();
  return record;
}
