import type { Knex } from 'knex';

/**
 * A project whose platform CMS became unreachable (its connection disconnected) falls back to the native CMS; these
 * columns remember the site it used, so a later connect that reaches that site again restores it (doc2 States).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('site_platform_content_sources', (t) => {
    t.text('reverted_site_id');
    t.timestamp('reverted_at', { useTz: true });
  });
  await knex.raw(`create index site_platform_content_sources_reverted on site_platform_content_sources (account_id) where reverted_at is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists site_platform_content_sources_reverted');
  await knex.schema.alterTable('site_platform_content_sources', (t) => {
    t.dropColumn('reverted_at');
    t.dropColumn('reverted_site_id');
  });
}
