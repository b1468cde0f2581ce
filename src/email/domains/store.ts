import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';

export type DomainStatus = 'pending' | 'verified' | 'failed';

export interface DomainRow {
  id: string;
  account_id: string;
  name: string;
  status: DomainStatus;
  verification_token: string;
  verified_at: Date | null;
  last_checked_at: Date | null;
  last_check_error: string | null;
  created_at: Date;
  updated_at: Date;
}

const table = 'email_domains';

/** The unique (account_id, name) constraint of migration 20261122004000. */
export const NAME_CONSTRAINT = 'email_domains_account_id_name_unique';

export async function insertDomain(db: Knex, accountId: string, name: string, token: string): Promise<DomainRow> {
  const [row] = await db(table).insert({ account_id: accountId, name, verification_token: token }).returning('*');
  return row;
}

/** Newest first. */
export async function listDomains(db: Knex, accountId: string, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    db(table)
      .where('account_id', accountId)
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<DomainRow[]>,
    db(table).where('account_id', accountId).count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
  ]);
  return { rows, total: Number(count) };
}

export async function findDomain(db: Knex, accountId: string, id: string): Promise<DomainRow | undefined> {
  return db(table).where({ account_id: accountId, id }).first();
}

/** The outcome of a DNS check; undefined when the domain was deleted meanwhile. */
export async function recordCheck(
  db: Knex,
  accountId: string,
  id: string,
  outcome: { verified: boolean; error: string | null },
): Promise<DomainRow | undefined> {
  const now = db.fn.now();
  const [row] = await db(table)
    .where({ account_id: accountId, id })
    .update({
      status: outcome.verified ? 'verified' : 'failed',
      verified_at: outcome.verified ? now : null,
      last_checked_at: now,
      last_check_error: outcome.error,
      updated_at: now,
    })
    .returning('*');
  return row;
}

export async function deleteDomain(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db(table).where({ account_id: accountId, id }).delete()) > 0;
}

/** Names of the account's verified domains (the sending path's check). */
export async function verifiedDomainNames(db: Knex, accountId: string): Promise<string[]> {
  const rows: Array<{ name: string }> = await db(table).where({ account_id: accountId, status: 'verified' }).select('name');
  return rows.map((r) => r.name);
}
