import type { Knex } from 'knex';

/** The first day of `now`'s UTC month, as the `date` the counter is keyed on. */
function monthOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/**
 * Takes one web-search call from the account's allowance for this UTC month: true when taken, false when `cap`
 * calls were already made (nothing counted). One upsert whose update only fires below the cap, so concurrent
 * callers never push the counter past it.
 */
export async function claimSearchCall(db: Knex, accountId: string, cap: number, now: Date = new Date()): Promise<boolean> {
  if (cap <= 0) return false;
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `insert into research_search_usage (account_id, month, calls) values (?, ?, 1)
     on conflict (account_id, month) do update set calls = research_search_usage.calls + 1
       where research_search_usage.calls < ?
     returning calls`,
    [accountId, monthOf(now), cap],
  );
  return rows.length === 1;
}

/** Web-search calls the account made in `now`'s UTC month. */
export async function searchCallsThisMonth(db: Knex, accountId: string, now: Date = new Date()): Promise<number> {
  const row = await db('research_search_usage').where({ account_id: accountId, month: monthOf(now) }).first('calls');
  return row ? Number(row.calls) : 0;
}
