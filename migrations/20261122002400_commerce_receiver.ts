import type { Knex } from 'knex';

/**
 * Commerce receiver, on top of 20261122002000_commerce:
 * - each recorded delivery keeps what its handler did (processed, failed, ignored) and a failure's code, so a
 *   failed-in-handler delivery — answered 200 as doc3 demands — is still on record;
 * - each logged order keeps whether it was its contact's first order (decided once, when the order first entered
 *   the contact's rollups) and the last CRM-bridge failure, which the bridge swallows by design;
 * - rollups are recomputed per contact from the order log, so the log is indexed by its backlink.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('commerce_webhook_deliveries', (t) => {
    t.uuid('account_id').references('accounts.id').onDelete('CASCADE');
    t.timestamp('processed_at', { useTz: true });
    t.text('outcome');
    t.text('error_code');
    t.check(`outcome is null or outcome in ('processed', 'failed', 'ignored')`, [], 'commerce_webhook_deliveries_outcome');
  });
  await knex.schema.alterTable('commerce_orders_log', (t) => {
    t.boolean('first_order');
    t.text('bridge_error');
    t.timestamp('bridge_failed_at', { useTz: true });
  });
  await knex.raw('create index commerce_orders_log_contact on commerce_orders_log (account_id, crm_contact_id) where crm_contact_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists commerce_orders_log_contact');
  await knex.schema.alterTable('commerce_orders_log', (t) => {
    t.dropColumns('first_order', 'bridge_error', 'bridge_failed_at');
  });
  await knex.schema.alterTable('commerce_webhook_deliveries', (t) => {
    t.dropChecks(['commerce_webhook_deliveries_outcome']);
    t.dropColumns('account_id', 'processed_at', 'outcome', 'error_code');
  });
}
