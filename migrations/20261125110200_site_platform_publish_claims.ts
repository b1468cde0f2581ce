import type { Knex } from 'knex';

/**
 * The publish minute of a platform site (doc2 Limits: one successful publish per site per minute). The site is the
 * platform's, so the minute is shared by every account that holds it; one row per platform site id, no account.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('site_platform_publish_claims', (t) => {
    t.text('site_id').primary();
    t.timestamp('claimed_at', { useTz: true }).notNullable();
  });
  // Carry the minute already running on the accounts' site rows.
  await knex.raw(`insert into site_platform_publish_claims (site_id, claimed_at)
    select site_id, max(last_publish_requested_at) from site_platform_sites where last_publish_requested_at is not null group by site_id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('site_platform_publish_claims');
}
