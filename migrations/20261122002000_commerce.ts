import type { Knex } from 'knex';

/**
 * Commerce platform integration (doc3): the account's app registration, connections (one per shop), project
 * bindings, the light order log, privacy requests, webhook subscriptions and deliveries, plus the service-wide
 * inbox and workflow-trigger outbox that the integration writes to.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const account = (t: Knex.CreateTableBuilder) => t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('app_registrations', (t) => {
    id(t); account(t);
    t.text('provider').notNullable();
    t.text('client_id').notNullable();
    // Plaintext on purpose (doc3): the webhook receiver verifies every delivery with it.
    t.text('client_secret').notNullable();
    stamps(t);
    t.unique(['account_id', 'provider']);
  });

  await knex.schema.createTable('commerce_connections', (t) => {
    id(t); account(t);
    t.text('shop_domain').notNullable().unique();
    t.text('shop_id');
    t.text('shop_name');
    // AES-256-GCM envelopes `v1:iv:ct:tag` under COMMERCE_TOKEN_ENCRYPTION_KEY.
    t.text('admin_token_enc');
    t.text('storefront_token_enc');
    t.text('webhook_secret_enc');
    t.text('scope');
    t.text('purpose').notNullable().defaultTo('account_default');
    t.timestamp('installed_at', { useTz: true });
    t.timestamp('disconnected_at', { useTz: true });
    t.timestamp('last_synced_at', { useTz: true });
    t.text('revalidation_token');
    t.text('customer_account_client_id');
    t.text('customer_account_url');
    stamps(t);
    t.index(['account_id']);
    t.check(`purpose in ('account_default', 'project_override')`, [], 'commerce_connections_purpose');
  });

  await knex.schema.createTable('project_commerce_settings', (t) => {
    id(t); account(t);
    t.uuid('project_id').notNullable().unique();
    t.text('override_mode').notNullable().defaultTo('inherit');
    t.uuid('connection_id').references('commerce_connections.id').onDelete('SET NULL');
    t.text('storefront_api_version');
    stamps(t);
    t.check(`override_mode in ('inherit', 'override', 'disabled')`, [], 'project_commerce_settings_mode');
  });

  await knex.schema.createTable('commerce_orders_log', (t) => {
    id(t); account(t);
    t.uuid('connection_id').notNullable().references('commerce_connections.id').onDelete('CASCADE');
    t.text('order_id').notNullable();
    t.text('order_number');
    t.bigInteger('total_amount_cents').notNullable().defaultTo(0);
    t.text('currency');
    t.text('customer_email');
    t.jsonb('raw_payload');
    t.uuid('crm_contact_id').references('crm_contacts.id').onDelete('SET NULL');
    // The platform's own order times: ordering deliveries (an older update never overwrites a newer one).
    t.timestamp('order_created_at', { useTz: true });
    t.timestamp('order_updated_at', { useTz: true });
    t.text('last_topic');
    stamps(t);
    t.unique(['connection_id', 'order_id']);
    t.index(['account_id', 'customer_email']);
    t.index(['connection_id', 'order_updated_at']);
  });

  await knex.schema.createTable('commerce_compliance_requests', (t) => {
    id(t); account(t);
    t.uuid('connection_id').references('commerce_connections.id').onDelete('SET NULL');
    t.text('topic').notNullable();
    t.text('shop_domain').notNullable();
    t.text('customer_id');
    t.text('customer_email');
    t.jsonb('raw_payload');
    t.timestamp('fulfilled_at', { useTz: true });
    t.timestamp('alerted_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['fulfilled_at', 'created_at']);
  });

  await knex.schema.createTable('commerce_webhook_subscriptions', (t) => {
    id(t); account(t);
    t.uuid('connection_id').notNullable().references('commerce_connections.id').onDelete('CASCADE');
    t.text('topic').notNullable();
    t.text('endpoint_url').notNullable();
    t.text('api_version').notNullable();
    t.text('platform_subscription_id');
    t.timestamp('last_received_at', { useTz: true });
    t.boolean('is_active').notNullable().defaultTo(true);
    stamps(t);
    t.unique(['connection_id', 'topic']);
  });

  // Durable dedup of verified deliveries beyond the in-memory 10-minute window (restarts, several replicas).
  await knex.schema.createTable('commerce_webhook_deliveries', (t) => {
    t.uuid('connection_id').notNullable().references('commerce_connections.id').onDelete('CASCADE');
    t.text('webhook_id').notNullable();
    t.text('topic').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['connection_id', 'webhook_id']);
    t.index(['received_at']);
  });

  await knex.schema.createTable('commerce_cache_invalidations', (t) => {
    id(t); account(t);
    t.uuid('connection_id').references('commerce_connections.id').onDelete('SET NULL');
    t.text('topic').notNullable();
    t.specificType('tags', 'text[]').notNullable();
    t.text('target');
    t.text('outcome');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('inbox_items', (t) => {
    id(t); account(t);
    t.text('kind').notNullable();
    t.text('urgency').notNullable().defaultTo('normal');
    t.text('dedup_key');
    t.text('title').notNullable();
    t.jsonb('body').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('resolved_at', { useTz: true });
    t.index(['account_id', 'created_at']);
    t.check(`urgency in ('low', 'normal', 'urgent')`, [], 'inbox_items_urgency');
  });
  // One open item per dedup key: sweeps that find the same problem again do not pile up items.
  await knex.raw('create unique index inbox_items_open_dedup on inbox_items (account_id, dedup_key) where resolved_at is null and dedup_key is not null');

  await knex.schema.createTable('workflow_trigger_outbox', (t) => {
    id(t); account(t);
    t.text('trigger').notNullable();
    t.text('dedup_key');
    t.jsonb('payload').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
    t.index(['dispatched_at', 'created_at']);
  });
  await knex.raw('create unique index workflow_trigger_outbox_dedup on workflow_trigger_outbox (account_id, trigger, dedup_key) where dedup_key is not null');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'workflow_trigger_outbox', 'inbox_items', 'commerce_cache_invalidations', 'commerce_webhook_deliveries',
    'commerce_webhook_subscriptions', 'commerce_compliance_requests', 'commerce_orders_log', 'project_commerce_settings',
    'commerce_connections', 'app_registrations',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
