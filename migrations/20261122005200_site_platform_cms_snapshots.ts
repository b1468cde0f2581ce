import type { Knex } from 'knex';

/**
 * The CMS snapshot cache (doc2, CMS snapshot): kind schema (collection list and definitions, 10 minutes) or items
 * (one collection's items, 60 seconds), per account and site. In Postgres, not in process memory, so a write or an
 * inbound webhook in one process makes every process refetch.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('site_platform_cms_snapshots', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('site_id').notNullable();
    t.text('kind').notNullable();
    // '' for the site's collection list; the collection id otherwise.
    t.text('collection_id').notNullable();
    // The read's own parameters (paging, locale, sort, staged or live) as a stable key.
    t.text('variant').notNullable();
    t.jsonb('body').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    t.primary(['account_id', 'site_id', 'kind', 'collection_id', 'variant']);
    t.check(`kind in ('schema', 'items')`, [], 'site_platform_cms_snapshots_kind');
  });
  // Stale marking is by site across accounts (an agency and its client may bind one site).
  await knex.raw('create index site_platform_cms_snapshots_site on site_platform_cms_snapshots (site_id)');
  await knex.raw(`create index site_platform_cms_snapshots_collection on site_platform_cms_snapshots (collection_id) where collection_id <> ''`);
  // When a site's (scope `site:<id>`) or a collection's (`collection:<id>`) snapshots were last marked stale: a read that
  // started fetching before then does not store its answer.
  await knex.schema.createTable('site_platform_cms_stale_marks', (t) => {
    t.text('scope').primary();
    t.timestamp('marked_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('site_platform_cms_stale_marks');
  await knex.schema.dropTableIfExists('site_platform_cms_snapshots');
}
