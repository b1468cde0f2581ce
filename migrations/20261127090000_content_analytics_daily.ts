import type { Knex } from 'knex';

/**
 * Content analytics: the nightly daily rows. One row per content item per closed UTC day — the page's
 * views and unique views that day, and the rolling 30-day scorecard as of that night — written once (the primary key
 * makes the nightly job idempotent per item and day) and deleted with the item.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content_analytics_daily', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('content_id').notNullable().references('content_items.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('views').notNullable();
    t.integer('unique_views').notNullable();
    t.jsonb('external_analytics').notNullable();
    t.timestamp('computed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['account_id', 'content_id', 'day']);
    t.check('views >= 0 and unique_views >= 0', [], 'content_analytics_daily_counts');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('content_analytics_daily');
}
