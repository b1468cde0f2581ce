import type { Knex } from 'knex';

/**
 * Marketing content (doc1): categories, grounding objects (customer avatars, journey maps, before/after grids with
 * measurable results and testimonials), content items, their versions, comments and reviews, and the media library.
 *
 * Rows written before 2026-09-12 hold the target keyword only in `settings.target_keyword`; `target_keyword` is null
 * there and reads fall back to the settings value.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const account = (t: Knex.CreateTableBuilder) => t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('marketing_categories', (t) => {
    id(t); account(t);
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('description');
    stamps(t);
  });
  await knex.raw('create unique index marketing_categories_account_name on marketing_categories (account_id, lower(name))');
  await knex.raw('create unique index marketing_categories_account_slug on marketing_categories (account_id, slug)');

  await knex.schema.createTable('customer_avatars', (t) => {
    id(t); account(t);
    t.text('name').notNullable();
    t.text('description');
    // Free-form persona detail: role, goals, pains, objections, channels …
    t.jsonb('attributes').notNullable().defaultTo('{}');
    stamps(t);
    t.index(['account_id', 'created_at']);
  });

  await knex.schema.createTable('customer_journeys', (t) => {
    id(t); account(t);
    t.text('name').notNullable();
    t.text('description');
    // Ordered stages: [{ "name": "Awareness", "description": "…" }, …]; content names a stage by its spelling here.
    t.jsonb('stages').notNullable().defaultTo('[]');
    stamps(t);
    t.index(['account_id', 'created_at']);
  });

  await knex.schema.createTable('before_after_grids', (t) => {
    id(t); account(t);
    t.text('name').notNullable();
    t.text('description');
    stamps(t);
    t.index(['account_id', 'created_at']);
  });

  await knex.schema.createTable('before_after_results', (t) => {
    id(t); account(t);
    t.uuid('grid_id').notNullable().references('before_after_grids.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('metric').notNullable();
    t.decimal('before_value', 20, 4).notNullable();
    t.decimal('after_value', 20, 4).notNullable();
    t.text('unit');
    t.unique(['grid_id', 'position']);
  });

  await knex.schema.createTable('before_after_testimonials', (t) => {
    id(t); account(t);
    t.uuid('grid_id').notNullable().references('before_after_grids.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('quote').notNullable();
    t.text('attribution');
    // Consent to quote verbatim with attribution (doc1 proof-pack rules).
    t.boolean('consent').notNullable().defaultTo(false);
    t.unique(['grid_id', 'position']);
  });

  await knex.schema.createTable('content_items', (t) => {
    id(t); account(t);
    t.text('title').notNullable();
    t.text('slug');
    t.text('body');
    t.text('excerpt');
    t.text('status').notNullable().defaultTo('draft');
    t.text('content_type').notNullable().defaultTo('blog_post');
    t.uuid('category_id').references('marketing_categories.id').onDelete('SET NULL');
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.uuid('avatar_id').references('customer_avatars.id').onDelete('SET NULL');
    t.uuid('journey_id').references('customer_journeys.id').onDelete('SET NULL');
    t.string('journey_stage', 255);
    t.uuid('before_after_grid_id').references('before_after_grids.id').onDelete('SET NULL');
    t.string('target_keyword', 255);
    t.text('meta_title');
    t.text('meta_description');
    t.text('featured_image_url');
    t.text('featured_image_alt');
    t.text('meta_keywords');
    t.text('canonical_url');
    // Link to the site platform's CMS: { project_id, collection_id, item_id } (doc2 fills it in).
    t.jsonb('cms_link');
    t.text('deploy_target').notNullable().defaultTo('production');
    t.timestamp('scheduled_publish_at', { useTz: true });
    t.timestamp('published_at', { useTz: true });
    t.timestamp('publish_failed_at', { useTz: true });
    t.jsonb('publish_error');
    t.uuid('created_by_user_id').references('users.id').onDelete('SET NULL');
    stamps(t);
    t.check(`deploy_target in ('production', 'staging', 'dev', 'none', 'publish')`, [], 'content_items_deploy_target');
  });
  await knex.raw('create index content_items_account_updated on content_items (account_id, updated_at desc, id desc)');
  await knex.raw('create index content_items_account_published on content_items (account_id, published_at desc nulls last, id desc)');
  await knex.raw('create index content_items_account_status on content_items (account_id, status, updated_at desc)');
  await knex.raw('create index content_items_account_type on content_items (account_id, content_type, updated_at desc)');
  await knex.raw('create index content_items_account_category on content_items (account_id, category_id)');
  await knex.raw('create index content_items_account_avatar on content_items (account_id, avatar_id)');
  await knex.raw('create index content_items_account_journey on content_items (account_id, journey_id)');
  await knex.raw('create index content_items_account_grid on content_items (account_id, before_after_grid_id)');
  await knex.raw('create index content_items_account_stage on content_items (account_id, lower(journey_stage))');
  await knex.raw('create index content_items_account_tags on content_items using gin (account_id, tags)');
  await knex.raw('create index content_items_account_title_trgm on content_items using gin (account_id, lower(title) gin_trgm_ops)');
  await knex.raw('create index content_items_scheduled on content_items (account_id, scheduled_publish_at) where scheduled_publish_at is not null');

  await knex.schema.createTable('content_versions', (t) => {
    id(t); account(t);
    t.uuid('content_id').notNullable().references('content_items.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.jsonb('snapshot').notNullable();
    t.specificType('changed_fields', 'text[]').notNullable().defaultTo('{}');
    t.text('actor_type').notNullable();
    t.text('actor_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['content_id', 'version']);
    t.check(`actor_type in ('user', 'agent', 'system')`, [], 'content_versions_actor_type');
  });

  await knex.schema.createTable('content_comments', (t) => {
    id(t); account(t);
    t.uuid('content_id').notNullable().references('content_items.id').onDelete('CASCADE');
    t.text('body').notNullable();
    t.text('author_type').notNullable();
    t.text('author_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['content_id', 'created_at']);
  });

  await knex.schema.createTable('content_reviews', (t) => {
    id(t); account(t);
    t.uuid('content_id').notNullable().references('content_items.id').onDelete('CASCADE');
    t.text('decision').notNullable();
    t.text('note');
    t.text('reviewer_type').notNullable();
    t.text('reviewer_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['content_id', 'created_at']);
    t.check(`decision in ('approve', 'request_changes')`, [], 'content_reviews_decision');
  });

  await knex.schema.createTable('media_assets', (t) => {
    id(t); account(t);
    t.text('filename').notNullable();
    t.text('mime_type').notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.integer('byte_size').notNullable();
    t.text('sha256').notNullable();
    // Kept in Postgres so every API replica serves it; a blob store can replace this column later.
    t.binary('data').notNullable();
    // The unguessable part of the public file URL (/media/<public_token>/<filename>).
    t.text('public_token').notNullable().unique();
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.text('alt_text');
    stamps(t);
    t.index(['account_id', 'created_at']);
  });
  await knex.raw('create index media_assets_account_tags on media_assets using gin (account_id, tags)');

  await knex.schema.createTable('content_item_images', (t) => {
    account(t);
    t.uuid('content_id').notNullable().references('content_items.id').onDelete('CASCADE');
    t.uuid('asset_id').notNullable().references('media_assets.id').onDelete('CASCADE');
    t.text('placement');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['content_id', 'asset_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'content_item_images', 'media_assets', 'content_reviews', 'content_comments', 'content_versions', 'content_items',
    'before_after_testimonials', 'before_after_results', 'before_after_grids', 'customer_journeys', 'customer_avatars',
    'marketing_categories',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
