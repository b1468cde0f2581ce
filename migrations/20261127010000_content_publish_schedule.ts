import type { Knex } from 'knex';

/**
 * Scheduled publishing and item URLs.
 * - `schedule_executes`: true exactly while a `content-publish:<account>:<content>` workflow holds the item's
 *   `scheduled_publish_at` (the write that armed it committed after the workflow accepted the date). A stored date
 *   without it is recorded only. Rows written before this migration were never armed, so they read as recorded only.
 * - `site_entry_url`: the live URL of the item's platform CMS entry (site domain + collection slug + item slug),
 *   stamped each time the item is published to the platform.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('content_items', (t) => {
    t.boolean('schedule_executes').notNullable().defaultTo(false);
    t.text('site_entry_url');
  });
  await knex.raw(`create index content_items_armed_schedules
    on content_items (scheduled_publish_at) where schedule_executes`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists content_items_armed_schedules');
  await knex.schema.alterTable('content_items', (t) => {
    t.dropColumn('schedule_executes');
    t.dropColumn('site_entry_url');
  });
}
