import type { Knex } from '../../db/knex';
import type { EmailScope } from '../../auth/types';
import type { EmailEnvironment } from './token';

export interface EmailKeyRow {
  id: string;
  account_id: string;
  name: string;
  environment: EmailEnvironment;
  scopes: EmailScope[];
  secret_hash: string;
  secret_last4: string;
  rate_per_second: number;
  daily_cap: number | null;
  allowed_domains: string[] | null;
  allowed_ips: string[] | null;
  created_by_user_id: string | null;
  rotated_from_key_id: string | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewEmailKeyRow = Pick<
  EmailKeyRow,
  | 'id'
  | 'name'
  | 'environment'
  | 'scopes'
  | 'secret_hash'
  | 'secret_last4'
  | 'rate_per_second'
  | 'daily_cap'
  | 'allowed_domains'
  | 'allowed_ips'
  | 'created_by_user_id'
  | 'rotated_from_key_id'
>;

export type EmailKeyChanges = Partial<Pick<EmailKeyRow, 'name' | 'rate_per_second' | 'daily_cap' | 'allowed_domains' | 'allowed_ips'>>;

/** The channel every process LISTENs on; the payload is the changed key's id. */
export const EMAIL_KEYS_CHANNEL = 'email_keys';

export async function insertKey(db: Knex, accountId: string, row: NewEmailKeyRow): Promise<EmailKeyRow> {
  const [created] = await db('email_keys')
    .insert({ account_id: accountId, ...row })
    .returning('*');
  return created;
}

/** The credential lookup: by the key's own id only, since the account is what it reveals. Runs as a prepared statement. */
export async function findKeyForAuth(db: Knex, id: string): Promise<EmailKeyRow | undefined> {
  return (await db.raw('select * from email_keys where id = ?', [id]).options({ name: 'email_find_key' })).rows[0];
}

/** Current rows of cached keys, after a reconnect of the listener (notifications may have been missed). */
export async function findKeysForAuth(db: Knex, ids: string[]): Promise<EmailKeyRow[]> {
  if (ids.length === 0) return [];
  return (await db.raw('select * from email_keys where id = any(?::uuid[])', [ids])).rows;
}

export async function getKey(db: Knex, accountId: string, id: string): Promise<EmailKeyRow | undefined> {
  return db('email_keys').where({ account_id: accountId, id }).first();
}

export async function pageKeys(
  db: Knex,
  accountId: string,
  window: { limit: number; offset: number },
): Promise<{ rows: EmailKeyRow[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    db('email_keys')
      .where({ account_id: accountId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(window.limit)
      .offset(window.offset),
    db('email_keys').where({ account_id: accountId }).count<{ count: number }[]>('* as count'),
  ]);
  return { rows, total: Number(count) };
}

export async function updateKey(db: Knex, accountId: string, id: string, changes: EmailKeyChanges): Promise<EmailKeyRow | undefined> {
  const [row] = await db('email_keys')
    .where({ account_id: accountId, id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Revokes once: a second revoke keeps the first `revoked_at`. */
export async function revokeKey(db: Knex, accountId: string, id: string): Promise<EmailKeyRow | undefined> {
  const [row] = await db('email_keys')
    .where({ account_id: accountId, id })
    .update({ revoked_at: db.raw('coalesce(revoked_at, now())'), updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Locks the key for a change that must see its current state (rotation). */
export async function lockKey(trx: Knex.Transaction, accountId: string, id: string): Promise<EmailKeyRow | undefined> {
  return trx('email_keys').where({ account_id: accountId, id }).forUpdate().first();
}

/** Names of the account's sender domains among `names` (any status). */
export async function existingDomains(db: Knex, accountId: string, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await db('email_domains').where({ account_id: accountId }).whereIn('name', names).select('name');
  return rows.map((r: { name: string }) => r.name);
}

/** Tells every process (this one included) that the key changed; delivered only if the transaction commits. */
export async function notifyKeyChanged(trx: Knex, id: string): Promise<void> {
  await trx.raw('select pg_notify(?, ?)', [EMAIL_KEYS_CHANNEL, id]);
}
