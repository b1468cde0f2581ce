import type { Knex } from 'knex';

/** A redacted order stays redacted: later deliveries of it update totals but never write personal data back. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('commerce_orders_log', (t) => {
    t.timestamp('redacted_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('commerce_orders_log', (t) => {
    t.dropColumn('redacted_at');
  });
}
