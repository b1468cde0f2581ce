import type { Knex } from 'knex';

/**
 * Sweeps: the webhook-health sweep asks, per connection, when its newest verified delivery arrived
 * (a site-token connection has no subscription rows to carry `last_received_at`). This index answers that without a
 * scan of the event log.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index site_platform_inbound_events_connection_verified
    on site_platform_inbound_events (connection_id, received_at desc) where verified`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists site_platform_inbound_events_connection_verified');
}
