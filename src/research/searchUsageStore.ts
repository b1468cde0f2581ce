import type { Knex } from 'knex';

/**
 * Adds one call to the account's counter for `month` unless it already reached `cap`: true when counted. One
 * upsert whose update only fires below the cap, so concurrent callers never push the counter past it.
 */
export async function countCallBelowCap(db: Knex, accountId: string, month: string, cap: number): Promise<boolean> {
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `insert into research_search_usage (account_id, month, calls) values (?, ?, 1)
     on conflict (account_id, month) do update set calls = research_search_usage.calls + 1
       where research_search_usage.calls < ?
     returning calls`,
    [accountId, month, cap],
  );
  return rows.length === 1;
}

/** The account's counted calls of `month` (0 when none). */
export async function callsOfMonth(db: Knex, accountId: string, month: string): Promise<number> {
  const row = await db('research_search_usage').where({ account_id: accountId, month }).first('calls');
  return row ? Number(row.calls) : 0;
}
