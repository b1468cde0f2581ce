import type { Knex } from 'knex';

/**
 * Article images: the run's record of each rendered image, one row per image unit key
 * (`<workflowId>:<slot>`), written as soon as the image is hosted. A render activity retried after a worker kill finds
 * its row and answers it again instead of rendering, uploading and charging a second time.
 * - `hosted_on`: `site_platform` (the platform's asset library, `platform_asset_id` set) or `media_store` (the
 *   service's media library, whose row is the host).
 * - `asset_id`: the media library row; null when the image is hosted but the library row could not be written.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content_image_outputs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('unit_key').notNullable();
    t.uuid('content_id').notNullable().references('content_items.id').onDelete('CASCADE');
    t.text('hosted_on').notNullable();
    t.text('url').notNullable();
    t.uuid('asset_id').references('media_assets.id').onDelete('SET NULL');
    t.text('platform_asset_id');
    t.text('mime_type').notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.integer('byte_size').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['account_id', 'unit_key']);
    t.index(['account_id', 'content_id']);
    t.check(`hosted_on in ('site_platform', 'media_store')`, [], 'content_image_outputs_hosted_on');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('content_image_outputs');
}
