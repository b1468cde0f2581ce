import type { Knex } from '../db/knex';

/** Inserts the outbox row unless one with the same (trigger, dedup key) exists for the account: true when inserted. */
export async function insertTriggerOnce(
  db: Knex, accountId: string, row: { trigger: string; dedupKey: string; payload: Record<string, unknown> },
): Promise<boolean> {
  const result = await db.raw(
    `insert into workflow_trigger_outbox (account_id, trigger, dedup_key, payload) values (?, ?, ?, ?::jsonb)
     on conflict (account_id, trigger, dedup_key) where dedup_key is not null do nothing
     returning id`,
    [accountId, row.trigger, row.dedupKey, JSON.stringify(row.payload)],
  );
  return result.rows.length > 0;
}
