import type { Knex } from '../../db/knex';
import { normaliseDomain } from '../domains/name';
import { AccountCache } from '../domains/verifiedCache';
import { openDkimKey } from './keyBox';
import { DkimSigningKey } from './signingKey';
import * as store from './store';

/**
 * How long this process signs with the keys it read. A rotation's promotion through another replica reaches this one
 * within it; the key it replaced stays published for days (RETIRING_KEY_DAYS), so its signatures still verify meanwhile.
 */
export const SIGNING_KEYS_TTL_MS = 30_000;

type AccountKeys = Map<string, Promise<DkimSigningKey[]>>;

const cache = new AccountCache<AccountKeys>(Date.now, SIGNING_KEYS_TTL_MS);

/** A stored key cannot be unsealed: SECRET_HASH_KEY changed since it was made. Rotating the domain's key mends it. */
export class DkimKeyUnreadableError extends Error {
  readonly code = 'dkim_key_unreadable';
  constructor(readonly record: string) {
    super(
      `the DKIM key of ${record} cannot be unsealed (SECRET_HASH_KEY changed since it was made); rotate the domain's DKIM key and verify the new record`,
    );
    this.name = 'DkimKeyUnreadableError';
  }
}

export interface SigningKeyDeps {
  db: Knex;
  secretHashKey: string;
}

/**
 * The active DKIM keys of the account's domain (any case; usually one), unsealed: what a live send from it signs
 * with. Empty when the domain is not the account's or has no active key. Read once per domain per
 * SIGNING_KEYS_TTL_MS in this process; a verify, rotation or delete through this process is seen at once. Throws
 * DkimKeyUnreadableError when a key cannot be unsealed (SECRET_HASH_KEY changed since it was made).
 */
export async function dkimKeysFor(deps: SigningKeyDeps, accountId: string, domain: string): Promise<DkimSigningKey[]> {
  const name = normaliseDomain(domain);
  const domains = await cache.get(accountId, async () => new Map());
  let keys = domains.get(name);
  if (!keys) {
    keys = loadKeys(deps, accountId, name);
    domains.set(name, keys);
    keys.catch(() => domains.delete(name));
  }
  return keys;
}

async function loadKeys(deps: SigningKeyDeps, accountId: string, name: string): Promise<DkimSigningKey[]> {
  const rows = await store.activeKeysByName(deps.db, accountId, name);
  return rows.map(
    (row) => new DkimSigningKey(name, row.selector, unseal(deps.secretHashKey, row.private_key_enc, `${row.selector}._domainkey.${name}`)),
  );
}

function unseal(secretHashKey: string, envelope: string, record: string): string {
  try {
    return openDkimKey(secretHashKey, envelope);
  } catch {
    throw new DkimKeyUnreadableError(record);
  }
}

/** Forget the account's keys in this process (after a verify, rotation or delete). */
export function forgetDkimKeys(accountId: string): void {
  cache.invalidate(accountId);
}
