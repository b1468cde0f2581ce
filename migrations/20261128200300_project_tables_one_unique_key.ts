import type { Knex } from 'knex';

/**
 * The tables keyed by project (commerce settings, site platform bindings and content sources) each had two unique
 * keys: (account_id, project_id) and project_id alone. An upsert names one of them as its arbiter, and Postgres
 * resolves a conflict only on that one: two first writes of a project racing past the arbiter's check collide on
 * the other and fail with a unique violation instead of one updating the other's row.
 *
 * A project id is one project of one account (`projects.id`, and the (account_id, project_id) foreign key), so
 * project_id alone is the key. Each table keeps that one unique key; the account pair stays covered by it.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['project_commerce_settings', 'site_platform_project_bindings']) {
    await knex.schema.alterTable(table, (t) => t.dropUnique(['account_id', 'project_id']));
  }
  await knex.raw(`alter table site_platform_content_sources
    drop constraint site_platform_content_sources_pkey,
    drop constraint site_platform_content_sources_project_unique,
    add constraint site_platform_content_sources_pkey primary key (project_id)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table site_platform_content_sources
    drop constraint site_platform_content_sources_pkey,
    add constraint site_platform_content_sources_pkey primary key (account_id, project_id),
    add constraint site_platform_content_sources_project_unique unique (project_id)`);
  for (const table of ['project_commerce_settings', 'site_platform_project_bindings']) {
    await knex.schema.alterTable(table, (t) => t.unique(['account_id', 'project_id']));
  }
}
