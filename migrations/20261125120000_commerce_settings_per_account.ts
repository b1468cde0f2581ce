import type { Knex } from 'knex';

/**
 * A project id was unique across all accounts in `project_commerce_settings`, so one account saving
 * settings for another's project id locked that account out. Projects live outside this service until they become
 * an account-owned resource, so each account keeps its own settings per project id: key (account_id, project_id).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_commerce_settings', (t) => {
    t.dropUnique(['project_id']);
    t.unique(['account_id', 'project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_commerce_settings', (t) => {
    t.dropUnique(['account_id', 'project_id']);
    t.unique(['project_id']);
  });
}
