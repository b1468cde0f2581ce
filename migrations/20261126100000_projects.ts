import type { Knex } from 'knex';

/**
 * A website project becomes a resource of one account. Every area that takes a project id asks the
 * projects service, and tables that hang off a project reference it by foreign key (a later migration), so a
 * project id can never be owned by two accounts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('host');
    t.text('kind').notNullable();
    t.text('content_source').notNullable().defaultTo('native');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`kind in ('service_hosted', 'platform_hosted')`, [], 'projects_kind');
    t.check(`content_source in ('native', 'site_platform')`, [], 'projects_content_source');
    t.index(['account_id', 'created_at', 'id'], 'projects_account_created');
    // Lets child tables carry (account_id, project_id) foreign keys, so a row can never point at another account's project.
    t.unique(['account_id', 'id'], { indexName: 'projects_account_id_id' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('projects');
}
