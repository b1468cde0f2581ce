import type { Knex } from 'knex';

/**
 * Site platform integration (doc2), part 2: webhook subscriptions, the inbound event log, form routing per site,
 * the site page index that external bindings feed, token-health bookkeeping on connections, and the forms ledger.
 */
export async function up(knex: Knex): Promise<void> {
  const account = (t: Knex.CreateTableBuilder) => t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  // doc2 Webhook subscription: one per registered trigger per site; removed only after the platform confirmed the delete.
  await knex.schema.createTable('site_platform_webhook_subscriptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    account(t);
    t.uuid('connection_id').notNullable().references('site_platform_connections.id').onDelete('CASCADE');
    t.text('site_id').notNullable();
    t.text('webhook_id').notNullable().unique();
    t.text('trigger_type').notNullable();
    t.text('endpoint_url').notNullable();
    t.jsonb('filter');
    t.timestamp('last_received_at', { useTz: true });
    stamps(t);
    t.index(['account_id', 'site_id']);
    t.index(['connection_id', 'site_id']);
  });

  // doc2 Inbound event. Not tied to connections by reference, so the log survives a disconnect. `seq` orders the relay.
  await knex.schema.createTable('site_platform_inbound_events', (t) => {
    t.bigIncrements('seq').primary();
    account(t);
    t.uuid('connection_id');
    // Null only on unverified rows: an unverified body names no site we trust.
    t.text('site_id');
    t.text('event_id').notNullable();
    t.text('trigger_type');
    t.jsonb('payload').notNullable();
    t.boolean('verified').notNullable();
    t.text('verification').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
    t.timestamp('fanned_out_at', { useTz: true });
    t.unique(['account_id', 'site_id', 'event_id']);
    t.index(['received_at']);
    t.check(`verification in ('hmac', 'url_token', 'failed')`, [], 'site_platform_inbound_events_verification');
  });
  await knex.raw(`create index site_platform_inbound_events_undispatched on site_platform_inbound_events (seq)
    where dispatched_at is null and verified`);
  await knex.raw(`create index site_platform_inbound_events_unverified on site_platform_inbound_events (connection_id, received_at)
    where not verified`);

  // doc2 form routing: site_wide (one unfiltered form_submission registration) or per_form (one per form name).
  await knex.schema.createTable('site_platform_form_routing', (t) => {
    account(t);
    t.text('site_id').notNullable();
    t.text('mode').notNullable();
    t.jsonb('form_names').notNullable().defaultTo('[]');
    stamps(t);
    t.primary(['account_id', 'site_id']);
    t.check(`mode in ('site_wide', 'per_form')`, [], 'site_platform_form_routing_mode');
  });

  // The account's index of its platform-hosted sites' pages, fed by external-binding fan-out (read by site links).
  await knex.schema.createTable('site_platform_page_index', (t) => {
    account(t);
    t.text('site_id').notNullable();
    t.text('page_id').notNullable();
    t.text('title');
    t.text('published_path');
    t.timestamp('page_updated_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    t.timestamp('indexed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['account_id', 'site_id', 'page_id']);
  });

  // Token health: the sweep disconnects after consecutive rejections (see the sweep), so it counts them.
  await knex.schema.alterTable('site_platform_connections', (t) => {
    t.integer('token_rejections').notNullable().defaultTo(0);
    t.timestamp('token_checked_at', { useTz: true });
  });

  // The forms ledger: the account's system of record for leads.
  await knex.schema.createTable('form_submissions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    account(t);
    t.text('source').notNullable();
    t.text('idempotency_key').notNullable();
    t.text('form_label').notNullable();
    t.jsonb('fields').notNullable().defaultTo('{}');
    t.text('page_path').notNullable().defaultTo('/');
    t.boolean('spam').notNullable().defaultTo(false);
    t.boolean('duplicate').notNullable().defaultTo(false);
    t.boolean('historical').notNullable().defaultTo(false);
    t.text('email');
    t.uuid('contact_id');
    t.jsonb('raw_payload').notNullable().defaultTo('{}');
    t.timestamp('submitted_at', { useTz: true }).notNullable();
    t.timestamp('processed_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    stamps(t);
    t.unique(['account_id', 'idempotency_key']);
    t.index(['account_id', 'submitted_at']);
    t.check(`source in ('platform')`, [], 'form_submissions_source');
  });
  await knex.raw(`create index form_submissions_email on form_submissions (account_id, lower(email)) where email is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('form_submissions');
  await knex.schema.alterTable('site_platform_connections', (t) => {
    t.dropColumn('token_rejections');
    t.dropColumn('token_checked_at');
  });
  for (const table of [
    'site_platform_page_index',
    'site_platform_form_routing',
    'site_platform_inbound_events',
    'site_platform_webhook_subscriptions',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
