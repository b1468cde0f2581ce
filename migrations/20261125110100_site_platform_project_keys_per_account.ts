import type { Knex } from 'knex';

/**
 * Project ids come from outside the service, so one id may be bound by several accounts: project bindings and
 * content sources are keyed by (account, project), never by the project alone, so no account can block another's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('site_platform_project_bindings', (t) => {
    t.dropUnique(['project_id']);
    t.unique(['account_id', 'project_id']);
  });
  await knex.schema.alterTable('site_platform_content_sources', (t) => {
    t.dropPrimary();
    t.primary(['account_id', 'project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('site_platform_content_sources', (t) => {
    t.dropPrimary();
    t.primary(['project_id']);
  });
  await knex.schema.alterTable('site_platform_project_bindings', (t) => {
    t.dropUnique(['account_id', 'project_id']);
    t.unique(['project_id']);
  });
}
