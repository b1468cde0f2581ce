import type { Knex } from '../../db/knex';
import { sealDkimKey } from '../dkim/keyBox';
import { newDkimKeyPair, type DkimKeyPair } from '../dkim/keyPair';
import { selectorFor } from '../dkim/record';
import * as dkimStore from '../dkim/store';
import type { DkimKeyRow } from '../dkim/store';
import * as store from './store';

export interface KeyDeps {
  db: Knex;
  secretHashKey: string;
}

/** Stores a new pending key under the domain's next selector (`wy<n>`), in the caller's transaction. */
export async function insertNewKey(
  trx: Knex,
  secretHashKey: string,
  domain: { id: string; account_id: string },
  pair: DkimKeyPair,
): Promise<DkimKeyRow> {
  const seq = await store.nextSelectorSeq(trx, domain.id);
  return dkimStore.insertKey(trx, {
    accountId: domain.account_id,
    domainId: domain.id,
    selector: selectorFor(seq),
    publicKey: pair.publicKey,
    privateKeyEnc: sealDkimKey(secretHashKey, pair.privateKeyPem),
  });
}

/**
 * Gives each domain that has no DKIM key yet its first one (domains added before DKIM existed: their keys are made
 * on the first read, verify or rotation, since only the application holds the sealing key). Concurrent calls for one
 * domain take turns on its row; the second finds the key and keeps its own pair unused.
 */
export async function ensureDkimKeys(deps: KeyDeps, accountId: string, domains: Array<{ id: string }>): Promise<void> {
  const keyed = await dkimStore.domainsWithKeys(
    deps.db,
    domains.map((d) => d.id),
  );
  const missing = domains.filter((d) => !keyed.has(d.id));
  await Promise.all(
    missing.map(async ({ id }) => {
      const pair = await newDkimKeyPair();
      await deps.db.transaction(async (trx) => {
        const domain = await store.lockDomain(trx, accountId, id);
        if (domain && !(await dkimStore.hasKeys(trx, id))) await insertNewKey(trx, deps.secretHashKey, domain, pair);
      });
    }),
  );
}
