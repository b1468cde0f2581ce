import type { Knex } from 'knex';

/**
 * Webhook outbox: the receiver records each verified delivery WITH its payload and answers 200 once the
 * row is committed; a relay in the API process (src/commerce/webhooks/dispatcher.ts) hands undispatched rows to
 * the shop's workflow and stamps `dispatched_at`. `seq` is the arrival order (rows of one group-commit insert share
 * `received_at`); the partial index keeps the relay's claim cheap however large the table grows. Rows that exist
 * already were handed over by the old in-transaction signal: they count as dispatched.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('commerce_webhook_deliveries', (t) => {
    t.jsonb('payload');
    t.timestamp('dispatched_at', { useTz: true });
    t.bigIncrements('seq', { primaryKey: false });
  });
  await knex.raw('update commerce_webhook_deliveries set dispatched_at = received_at where dispatched_at is null');
  await knex.raw('create index commerce_webhook_deliveries_undispatched on commerce_webhook_deliveries (seq) where dispatched_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists commerce_webhook_deliveries_undispatched');
  await knex.schema.alterTable('commerce_webhook_deliveries', (t) => {
    t.dropColumns('payload', 'dispatched_at', 'seq');
  });
}
