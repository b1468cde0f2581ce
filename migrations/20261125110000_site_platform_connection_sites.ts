import type { Knex } from 'knex';

/**
 * Which sites each connection's grant reaches. The site row is one per (account, site) and names only the connection
 * that last shared it, so several connections sharing a site (a default and project overrides) cannot be told apart
 * from it; resolution checks this table instead (doc2 Resolution rule).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('site_platform_connection_sites', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('connection_id').notNullable().references('site_platform_connections.id').onDelete('CASCADE');
    t.text('site_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['connection_id', 'site_id']);
    t.index(['account_id', 'site_id']);
  });
  // The best the old rows know: each site reached by the connection its row names.
  await knex.raw(`insert into site_platform_connection_sites (account_id, connection_id, site_id)
    select account_id, connection_id, site_id from site_platform_sites where connection_id is not null
    on conflict do nothing`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('site_platform_connection_sites');
}
