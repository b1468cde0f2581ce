import type { Knex } from 'knex';

/**
 * The agent list's common filter pairs (status with type; avatar with journey stage), covered so the list's
 * count and page read exactly the matching index entries (index-only), not every row of the first filter.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index content_items_account_status_type on content_items
    (account_id, status, content_type, updated_at desc, id desc) include (published_at)`);
  await knex.raw(`create index content_items_account_avatar_stage on content_items
    (account_id, avatar_id, lower(journey_stage), updated_at desc, id desc) include (published_at, journey_stage)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists content_items_account_avatar_stage');
  await knex.raw('drop index if exists content_items_account_status_type');
}
