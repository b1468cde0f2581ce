import type { Knex } from 'knex';

/**
 * The entity workflows drain their outbox from the table: each pass takes the oldest rows of one shop (or site) that
 * were handed over and are not processed yet, and the relay finds rows handed over long ago and still unprocessed.
 * Both read these partial indexes, which hold only unprocessed rows however large the tables grow. Built
 * concurrently, so receivers keep writing while they build.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index concurrently if not exists commerce_webhook_deliveries_unprocessed
    on commerce_webhook_deliveries (connection_id, seq) where processed_at is null`);
  await knex.raw(`create index concurrently if not exists site_platform_inbound_events_unfanned
    on site_platform_inbound_events (account_id, site_id, seq) where fanned_out_at is null and verified`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index concurrently if exists site_platform_inbound_events_unfanned');
  await knex.raw('drop index concurrently if exists commerce_webhook_deliveries_unprocessed');
}
