import type { Knex } from '../db/knex';

/**
 * Workflow triggers the service emits (doc3 "Emitted workflow triggers"), written to `workflow_trigger_outbox`
 * in the writer's own transaction, so a trigger exists exactly when the change that fired it committed.
 * A dispatcher (not part of this area yet) delivers rows with `dispatched_at` null and stamps them.
 */
export type TriggerName =
  | 'commerce.order.created'
  | 'commerce.order.updated'
  | 'commerce.subscription.created'
  | 'commerce.subscription.updated'
  | 'commerce.subscription.billing_succeeded'
  | 'commerce.subscription.billing_failed';

export interface TriggerInput {
  trigger: TriggerName;
  /** The same key for the same trigger and account is written once (replays and retries fire nothing new). */
  dedupKey: string;
  payload: Record<string, unknown>;
}

/** Writes a trigger unless one with the same (trigger, dedup key) exists for the account; `created` tells which. */
export async function writeTrigger(db: Knex, accountId: string, input: TriggerInput): Promise<{ created: boolean }> {
  const result = await db.raw(
    `insert into workflow_trigger_outbox (account_id, trigger, dedup_key, payload) values (?, ?, ?, ?::jsonb)
     on conflict (account_id, trigger, dedup_key) where dedup_key is not null do nothing
     returning id`,
    [accountId, input.trigger, input.dedupKey, JSON.stringify(input.payload)],
  );
  return { created: result.rows.length > 0 };
}

