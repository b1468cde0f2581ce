import type { Knex } from 'knex';

/**
 * Site platform operation runner (doc2 Operation routes): per-target write locks and each project's content source.
 * Idempotency slots reuse the shared idempotency_keys table.
 */
export async function up(knex: Knex): Promise<void> {
  // A row is a held lock until expires_at; an expired row is taken over by the next writer.
  await knex.schema.createTable('site_platform_write_locks', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('target').notNullable();
    t.uuid('holder').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['account_id', 'target']);
  });

  await knex.schema.createTable('site_platform_content_sources', (t) => {
    t.uuid('project_id').primary();
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('site_id');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`provider in ('native', 'site_platform')`, [], 'site_platform_content_sources_provider');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('site_platform_content_sources');
  await knex.schema.dropTableIfExists('site_platform_write_locks');
}
