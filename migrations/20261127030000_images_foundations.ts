import type { Knex } from 'knex';

/**
 * Article images: what the image run is gated and charged by, and the brand guides its
 * prompts read.
 * - `account_plans`: one row per account once an operator set it (no row = the default plan: unlimited images, good
 *   standing). `image_allowance_monthly` null = unlimited.
 * - `image_allowance_units`: one row per reserved image unit, keyed by the run's deterministic unit key, so a retried
 *   or restarted reservation finds its row (no double charge) and a refund is one state change (no double refund).
 *   A month's use = its `reserved` + `consumed` rows.
 * - `brand_guides`: the account's guide (project_id null) and optional per-project guides (the project's wins).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_plans', (t) => {
    t.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.text('plan').notNullable().defaultTo('standard');
    t.integer('image_allowance_monthly');
    t.text('billing_standing').notNullable().defaultTo('good');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('image_allowance_monthly is null or image_allowance_monthly >= 0', [], 'account_plans_allowance');
    t.check(`billing_standing in ('good', 'past_due', 'unpaid', 'suspended')`, [], 'account_plans_standing');
  });

  await knex.schema.createTable('image_allowance_units', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('period').notNullable();
    t.text('unit_key').notNullable();
    t.text('status').notNullable().defaultTo('reserved');
    t.timestamp('reserved_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('settled_at', { useTz: true });
    t.unique(['account_id', 'unit_key']);
    t.index(['account_id', 'period']);
    t.check(`status in ('reserved', 'consumed', 'refunded')`, [], 'image_allowance_units_status');
    t.check(`period ~ '^[0-9]{4}-[0-9]{2}$'`, [], 'image_allowance_units_period');
  });

  await knex.schema.createTable('brand_guides', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('project_id').references('projects.id').onDelete('CASCADE');
    t.text('voice');
    t.text('visual_style');
    t.jsonb('colors').notNullable().defaultTo('[]');
    t.jsonb('avoid').notNullable().defaultTo('[]');
    t.uuid('primary_logo_asset_id').references('media_assets.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create unique index brand_guides_scope on brand_guides (account_id, project_id) nulls not distinct');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('brand_guides');
  await knex.schema.dropTableIfExists('image_allowance_units');
  await knex.schema.dropTableIfExists('account_plans');
}
