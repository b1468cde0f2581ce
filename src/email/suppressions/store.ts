import type { Knex } from '../../db/knex';
import { preparedRows } from '../../db/prepared';
import { offsetOf, type Page } from '../../http/pagination';

export type SuppressionReason = 'bounce' | 'complaint' | 'manual' | 'unsubscribe';

export interface SuppressionRow {
  email: string;
  reason: SuppressionReason;
  message_id: string | null;
  created_at: Date;
}

const COLUMNS = ['email', 'reason', 'message_id', 'created_at'];

/** Adds the address unless it is already suppressed (the first reason stays); answers the row either way. */
export async function addSuppression(
  db: Knex,
  accountId: string,
  entry: { email: string; reason: SuppressionReason; messageId?: string | null },
): Promise<{ row: SuppressionRow; created: boolean }> {
  const [inserted] = await db('email_suppressions')
    .insert({ account_id: accountId, email: entry.email, reason: entry.reason, message_id: entry.messageId ?? null })
    .onConflict(['account_id', 'email'])
    .ignore()
    .returning(COLUMNS);
  if (inserted) return { row: inserted, created: true };
  return { row: (await findSuppression(db, accountId, entry.email))!, created: false };
}

export async function findSuppression(db: Knex, accountId: string, email: string): Promise<SuppressionRow | undefined> {
  return db('email_suppressions').where({ account_id: accountId, email }).first(COLUMNS);
}

export async function listSuppressions(
  db: Knex,
  accountId: string,
  page: Page,
  filter: { email?: string },
): Promise<{ rows: SuppressionRow[]; total: number }> {
  const scoped = () => {
    const q = db('email_suppressions').where({ account_id: accountId });
    // A filter matches part of the address: `@customer.test` lists a whole domain.
    if (filter.email) q.where('email', 'like', `%${filter.email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return q;
  };
  const [rows, [{ total }]] = await Promise.all([
    scoped()
      .select(COLUMNS)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'email', order: 'asc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)),
    scoped().count<{ total: string }[]>({ total: '*' }),
  ]);
  return { rows, total: Number(total) };
}

export async function deleteSuppression(db: Knex, accountId: string, email: string): Promise<boolean> {
  return (await db('email_suppressions').where({ account_id: accountId, email }).delete()) > 0;
}

/** Those of `emails` (lower case) the account suppresses, with why. */
export async function suppressedRows(db: Knex, accountId: string, emails: string[]): Promise<SuppressionRow[]> {
  if (emails.length === 0) return [];
  return db('email_suppressions').where({ account_id: accountId }).whereIn('email', emails).select(COLUMNS);
}

/** The suppressed ones among (account, address) pairs (`accounts[i]`, `emails[i]`, lower case), in one indexed statement. */
export function suppressedPairs(db: Knex, accounts: string[], emails: string[]): Promise<Array<SuppressionRow & { account_id: string }>> {
  // The send path's lookup (grouped, outside any transaction): a prepared statement on a pooled connection.
  return preparedRows(
    db,
    'email_suppressions_among',
    `select s.account_id, s.email, s.reason, s.message_id, s.created_at
       from email_suppressions s
       join unnest($1::uuid[], $2::text[]) as q(account_id, email) on s.account_id = q.account_id and s.email = q.email`,
    [accounts, emails],
  );
}
