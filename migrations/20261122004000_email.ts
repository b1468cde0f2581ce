import type { Knex } from 'knex';

/**
 * Email sending with scoped keys (doc1).
 *
 * - `email_keys`: `svc_test_…` / `svc_live_…` keys. Only an HMAC of the secret is stored (high-entropy secrets need
 *   no slow hash), with its last characters for display. Scopes, per-second limit, optional daily cap and the
 *   optional sender-domain and IP/CIDR allowlists live on the key. A rotation links the new key to the old one.
 * - `email_key_usage_daily`: usage per key and UTC day (sends, rate-limit hits, failed authentication attempts),
 *   flushed in aggregate by each API replica; lifetime and 30-day figures are sums over it.
 * - `email_key_daily_sends`: the exact shared counter behind a key's optional daily cap.
 * - `email_domains`: sender domains, verified through a DNS TXT record holding `verification_token`.
 * - `email_templates`: named subject/html/text with `{{variables}}`.
 * - `email_messages`: live sends (test sends are simulated and not stored).
 * - `email_webhook_endpoints`, `email_events` (an outbox: events recorded with the send, handed to Temporal by a
 *   relay) and `email_webhook_deliveries` (one per endpoint and event: attempts, last status, delivered_at).
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const account = (t: Knex.CreateTableBuilder) => t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('email_keys', (t) => {
    id(t); account(t);
    t.text('name').notNullable();
    t.text('environment').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.text('secret_hash').notNullable();
    t.text('secret_last4').notNullable();
    t.integer('rate_per_second').notNullable().defaultTo(10);
    t.integer('daily_cap');
    t.specificType('allowed_domains', 'text[]');
    t.specificType('allowed_ips', 'text[]');
    t.uuid('created_by_user_id').references('users.id').onDelete('SET NULL');
    t.uuid('rotated_from_key_id').references('email_keys.id').onDelete('SET NULL');
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    stamps(t);
    t.check(`environment in ('test', 'live')`, [], 'email_keys_environment');
    t.check('rate_per_second between 1 and 10000', [], 'email_keys_rate');
    t.check('daily_cap is null or daily_cap > 0', [], 'email_keys_daily_cap');
  });
  await knex.raw('create index email_keys_account_created on email_keys (account_id, created_at desc, id desc)');

  await knex.schema.createTable('email_key_usage_daily', (t) => {
    t.uuid('key_id').notNullable().references('email_keys.id').onDelete('CASCADE');
    account(t);
    t.date('day').notNullable();
    t.integer('sends').notNullable().defaultTo(0);
    t.integer('rate_limited').notNullable().defaultTo(0);
    t.integer('failed_auth').notNullable().defaultTo(0);
    t.primary(['key_id', 'day']);
  });

  await knex.schema.createTable('email_key_daily_sends', (t) => {
    t.uuid('key_id').notNullable().references('email_keys.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('sends').notNullable().defaultTo(0);
    t.primary(['key_id', 'day']);
  });

  await knex.schema.createTable('email_domains', (t) => {
    id(t); account(t);
    t.text('name').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('verification_token').notNullable();
    t.timestamp('verified_at', { useTz: true });
    t.timestamp('last_checked_at', { useTz: true });
    t.text('last_check_error');
    stamps(t);
    t.check(`status in ('pending', 'verified', 'failed')`, [], 'email_domains_status');
    t.unique(['account_id', 'name']);
  });

  await knex.schema.createTable('email_templates', (t) => {
    id(t); account(t);
    t.text('name').notNullable();
    t.text('subject').notNullable();
    t.text('html');
    t.text('text');
    stamps(t);
  });
  await knex.raw('create unique index email_templates_account_name on email_templates (account_id, lower(name))');

  await knex.schema.createTable('email_messages', (t) => {
    id(t); account(t);
    t.uuid('key_id').references('email_keys.id').onDelete('SET NULL');
    t.text('status').notNullable();
    t.text('from_address').notNullable();
    t.specificType('to_addresses', 'text[]').notNullable();
    t.text('subject').notNullable();
    t.jsonb('tags').notNullable().defaultTo('[]');
    t.text('smtp_message_id');
    t.text('error_code');
    t.timestamp('sent_at', { useTz: true });
    stamps(t);
    t.check(`status in ('sending', 'sent', 'failed')`, [], 'email_messages_status');
  });
  await knex.raw('create index email_messages_account_created on email_messages (account_id, created_at desc)');

  await knex.schema.createTable('email_webhook_endpoints', (t) => {
    id(t); account(t);
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('description');
    t.boolean('enabled').notNullable().defaultTo(true);
    // The signing secret, sealed (AES-256-GCM envelope): it must be read back to sign every delivery.
    t.text('secret_enc').notNullable();
    stamps(t);
  });
  await knex.raw('create index email_webhook_endpoints_account on email_webhook_endpoints (account_id, created_at desc)');

  await knex.schema.createTable('email_events', (t) => {
    id(t); account(t);
    t.text('type').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
  });
  await knex.raw('create index email_events_undispatched on email_events (created_at) where dispatched_at is null');

  await knex.schema.createTable('email_webhook_deliveries', (t) => {
    id(t); account(t);
    t.uuid('endpoint_id').notNullable().references('email_webhook_endpoints.id').onDelete('CASCADE');
    t.uuid('event_id').notNullable().references('email_events.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('last_status');
    t.text('last_error');
    t.timestamp('delivered_at', { useTz: true });
    stamps(t);
    t.unique(['endpoint_id', 'event_id']);
    t.check(`status in ('pending', 'delivered', 'failed')`, [], 'email_webhook_deliveries_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'email_webhook_deliveries', 'email_events', 'email_webhook_endpoints', 'email_messages', 'email_templates',
    'email_domains', 'email_key_daily_sends', 'email_key_usage_daily', 'email_keys',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
