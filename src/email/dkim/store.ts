import type { Knex } from '../../db/knex';

export type DkimKeyState = 'pending' | 'active' | 'retiring';
export type DkimCheckStatus = 'pending' | 'verified' | 'failed';

export interface DkimKeyRow {
  id: string;
  account_id: string;
  domain_id: string;
  selector: string;
  public_key: string;
  private_key_enc: string;
  state: DkimKeyState;
  status: DkimCheckStatus;
  verified_at: Date | null;
  last_checked_at: Date | null;
  last_check_error: string | null;
  activated_at: Date | null;
  retiring_since: Date | null;
  created_at: Date;
}

export interface NewDkimKey {
  accountId: string;
  domainId: string;
  selector: string;
  publicKey: string;
  privateKeyEnc: string;
}

const table = 'email_dkim_keys';

/** Retiring keys older than this are gone from every answer (and deleted by the next verify or rotation). */
const notExpired = (q: Knex.QueryBuilder, retiringDays: number) =>
  q.where((w) => w.whereNot('state', 'retiring').orWhereRaw(`retiring_since > now() - make_interval(days => ?)`, [retiringDays]));

export async function insertKey(db: Knex, key: NewDkimKey): Promise<DkimKeyRow> {
  const [row] = await db(table)
    .insert({
      account_id: key.accountId,
      domain_id: key.domainId,
      selector: key.selector,
      public_key: key.publicKey,
      private_key_enc: key.privateKeyEnc,
    })
    .returning('*');
  return row;
}

/** The keys of the domains (retiring ones within their window), oldest first. */
export async function keysOfDomains(db: Knex, accountId: string, domainIds: string[], retiringDays: number): Promise<DkimKeyRow[]> {
  if (domainIds.length === 0) return [];
  return notExpired(db(table).where('account_id', accountId).whereIn('domain_id', domainIds), retiringDays).orderBy([
    { column: 'created_at', order: 'asc' },
    { column: 'selector', order: 'asc' },
  ]);
}

export async function hasKeys(db: Knex, domainId: string): Promise<boolean> {
  return (await db(table).where('domain_id', domainId).first('id')) !== undefined;
}

/** Which of the domains have at least one key. */
export async function domainsWithKeys(db: Knex, domainIds: string[]): Promise<Set<string>> {
  if (domainIds.length === 0) return new Set();
  const rows: Array<{ domain_id: string }> = await db(table).whereIn('domain_id', domainIds).distinct('domain_id');
  return new Set(rows.map((r) => r.domain_id));
}

/** A pending key never signed anything: a rotation replaces it. */
export async function deletePendingKeys(db: Knex, domainId: string): Promise<void> {
  await db(table).where({ domain_id: domainId, state: 'pending' }).delete();
}

export async function deleteExpiredKeys(db: Knex, domainId: string, retiringDays: number): Promise<void> {
  await db(table)
    .where({ domain_id: domainId, state: 'retiring' })
    .whereRaw(`retiring_since <= now() - make_interval(days => ?)`, [retiringDays])
    .delete();
}

export async function recordKeyCheck(db: Knex, keyId: string, outcome: { verified: boolean; error: string | null }): Promise<void> {
  const now = db.fn.now();
  await db(table)
    .where('id', keyId)
    .update({
      status: outcome.verified ? 'verified' : 'failed',
      verified_at: outcome.verified ? now : null,
      last_checked_at: now,
      last_check_error: outcome.error,
    });
}

/** The key signs from now on; the key that signed until now (if another) starts retiring. */
export async function activateKey(db: Knex, domainId: string, keyId: string): Promise<void> {
  const now = db.fn.now();
  await db(table).where({ domain_id: domainId, state: 'active' }).whereNot('id', keyId).update({ state: 'retiring', retiring_since: now });
  await db(table).where({ id: keyId, domain_id: domainId }).update({ state: 'active', activated_at: now, retiring_since: null });
}

/** The active keys of an account's domain (by name) with their sealed private halves: what the send path signs with. */
export async function activeKeysByName(
  db: Knex,
  accountId: string,
  domain: string,
): Promise<Array<{ selector: string; private_key_enc: string }>> {
  return db(`${table} as k`)
    .join('email_domains as d', 'd.id', 'k.domain_id')
    .where({ 'd.account_id': accountId, 'd.name': domain, 'k.state': 'active' })
    .select('k.selector', 'k.private_key_enc');
}
