import type { Knex } from '../db/knex';

/** Inserts the outbox row unless one with the same (trigger, dedup key) exists for the account: true when inserted. */
export async function insertTriggerOnce(
  db: Knex,
  accountId: string,
  row: { trigger: string; dedupKey: string; payload: Record<string, unknown> },
): Promise<boolean> {
  const result = await db.raw(
    `insert into workflow_trigger_outbox (account_id, trigger, dedup_key, payload) values (?, ?, ?, ?::jsonb)
     on conflict (account_id, trigger, dedup_key) where dedup_key is not null do nothing
     returning id`,
    [accountId, row.trigger, row.dedupKey, JSON.stringify(row.payload)],
  );
  return result.rows.length > 0;
}

/**
 * Inserts many outbox rows in one statement, each unless one with the same (trigger, dedup key) exists for the
 * account. Answers the (trigger, dedup key) pairs newly written.
 */
export async function insertTriggersOnce(
  db: Knex,
  accountId: string,
  rows: Array<{ trigger: string; dedupKey: string; payload: Record<string, unknown> }>,
): Promise<Array<{ trigger: string; dedupKey: string }>> {
  if (rows.length === 0) return [];
  const result = await db.raw(
    `insert into workflow_trigger_outbox (account_id, trigger, dedup_key, payload)
     select ?::uuid, t.trigger, t.dedup_key, t.payload from jsonb_to_recordset(?::jsonb) as t(trigger text, dedup_key text, payload jsonb)
     on conflict (account_id, trigger, dedup_key) where dedup_key is not null do nothing
     returning trigger, dedup_key`,
    [accountId, JSON.stringify(rows.map((t) => ({ trigger: t.trigger, dedup_key: t.dedupKey, payload: t.payload })))],
  );
  return (result.rows as Array<{ trigger: string; dedup_key: string }>).map((r) => ({ trigger: r.trigger, dedupKey: r.dedup_key }));
}

/** Nulls `customer_email` and the `contact_id` link in the connection's order triggers (all, or those of `orderIds`). */
export async function nullOrderTriggerEmails(db: Knex, accountId: string, connectionId: string, orderIds?: string[]): Promise<void> {
  if (orderIds?.length === 0) return;
  await db.raw(
    `update workflow_trigger_outbox set payload = payload || '{"customer_email": null}'::jsonb
       || case when jsonb_exists(payload, 'contact_id') then '{"contact_id": null}'::jsonb else '{}'::jsonb end
     where account_id = ? and payload->>'connection_id' = ?
       and (payload->>'customer_email' is not null or payload->>'contact_id' is not null)
       and (?::text[] is null or payload->>'order_id' = any(?::text[]))`,
    [accountId, connectionId, orderIds ?? null, orderIds ?? null],
  );
}

/** Nulls `customer_id` (and any `customer_email`) in the connection's triggers that name this platform customer. */
export async function nullCustomerTriggerIds(db: Knex, accountId: string, connectionId: string, customerId: string): Promise<void> {
  await db.raw(
    `update workflow_trigger_outbox set payload = payload || '{"customer_id": null}'::jsonb
       || case when jsonb_exists(payload, 'customer_email') then '{"customer_email": null}'::jsonb else '{}'::jsonb end
     where account_id = ? and payload->>'connection_id' = ? and payload->>'customer_id' = ?`,
    [accountId, connectionId, customerId],
  );
}

/** Nulls `customer_email`, `customer_id` and the `contact_id` link in every trigger of the connection that carries one. */
export async function nullConnectionTriggerCustomers(db: Knex, accountId: string, connectionId: string): Promise<void> {
  await db.raw(
    `update workflow_trigger_outbox set payload = payload
       || case when jsonb_exists(payload, 'customer_email') then '{"customer_email": null}'::jsonb else '{}'::jsonb end
       || case when jsonb_exists(payload, 'customer_id') then '{"customer_id": null}'::jsonb else '{}'::jsonb end
       || case when jsonb_exists(payload, 'contact_id') then '{"contact_id": null}'::jsonb else '{}'::jsonb end
     where account_id = ? and payload->>'connection_id' = ?
       and (payload->>'customer_email' is not null or payload->>'customer_id' is not null or payload->>'contact_id' is not null)`,
    [accountId, connectionId],
  );
}
