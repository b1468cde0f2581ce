import type { Knex } from '../../db/knex';

export interface DayUsageRow {
  keyId: string;
  day: string;
  sends: number;
  rateLimited: number;
  failedAuth: number;
}

/**
 * Adds per-key, per-day counts to the daily usage rows. Joined to email_keys so a key deleted meanwhile (its account
 * removed) drops out instead of failing the batch.
 */
export async function addDailyUsage(db: Knex, days: DayUsageRow[]): Promise<void> {
  if (days.length === 0) return;
  await db.raw(
    `
    insert into email_key_usage_daily (key_id, account_id, day, sends, rate_limited, failed_auth)
    select k.id, k.account_id, u.day, u.sends, u.rate_limited, u.failed_auth
    from jsonb_to_recordset(?::jsonb) as u(key_id uuid, day date, sends int, rate_limited int, failed_auth int)
    join email_keys k on k.id = u.key_id
    on conflict (key_id, day) do update set
      sends = email_key_usage_daily.sends + excluded.sends,
      rate_limited = email_key_usage_daily.rate_limited + excluded.rate_limited,
      failed_auth = email_key_usage_daily.failed_auth + excluded.failed_auth`,
    [
      JSON.stringify(
        days.map((u) => ({ key_id: u.keyId, day: u.day, sends: u.sends, rate_limited: u.rateLimited, failed_auth: u.failedAuth })),
      ),
    ],
  );
}

/** Moves each key's `last_used_at` forward to its time (never back). */
export async function advanceLastUsed(db: Knex, lastUsed: Array<[string, Date]>): Promise<void> {
  if (lastUsed.length === 0) return;
  await db.raw(
    `
    update email_keys k set last_used_at = greatest(k.last_used_at, u.at)
    from jsonb_to_recordset(?::jsonb) as u(id uuid, at timestamptz)
    where k.id = u.id`,
    [JSON.stringify(lastUsed.map(([id, at]) => ({ id, at: at.toISOString() })))],
  );
}

export interface UsageTotals {
  sends: number;
  recent: number;
  rate_limited: number;
  failed_auth: number;
}

/** Sums over the key's written daily rows: all sends, the sends from `since` on, rate-limit hits and failed auths. */
export async function usageTotals(db: Knex, accountId: string, keyId: string, since: string): Promise<UsageTotals> {
  const [row] = (
    await db.raw(
      `
    select coalesce(sum(sends), 0)::int as sends,
           coalesce(sum(sends) filter (where day >= ?::date), 0)::int as recent,
           coalesce(sum(rate_limited), 0)::int as rate_limited,
           coalesce(sum(failed_auth), 0)::int as failed_auth
    from email_key_usage_daily where account_id = ? and key_id = ?`,
      [since, accountId, keyId],
    )
  ).rows;
  return row;
}
