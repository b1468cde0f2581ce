import type { Knex } from 'knex';

/**
 * Account webhooks: alerts about jobs and operations, signed and retried like the email webhooks.
 * - `account_webhook_endpoints`: URLs subscribed to alert event types, with their sealed signing secret.
 * - `alert_events`: an outbox: events recorded where they happen, handed to a delivery workflow by the emitter or,
 *   when that start failed or the emitter had no Temporal client (activities), by the API's relay. `callback_url`
 *   is the one-off target of a job's completion event (the job's `callback_url`).
 * - `account_webhook_deliveries`: one per endpoint and event (or one per event for its callback): attempts, last
 *   status, delivered_at.
 * - `account_callback_secrets`: the account's secret that signs `callback_url` deliveries, sealed.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const account = (t: Knex.CreateTableBuilder) => t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('account_webhook_endpoints', (t) => {
    id(t);
    account(t);
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('description');
    t.boolean('enabled').notNullable().defaultTo(true);
    // The signing secret, sealed (AES-256-GCM envelope): it must be read back to sign every delivery.
    t.text('secret_enc').notNullable();
    stamps(t);
  });
  await knex.raw('create index account_webhook_endpoints_account on account_webhook_endpoints (account_id, created_at desc)');

  await knex.schema.createTable('alert_events', (t) => {
    id(t);
    account(t);
    t.text('type').notNullable();
    t.jsonb('data').notNullable();
    t.text('callback_url');
    // What the event is about (`job:<run id>`, `inbox:<item id>` …): a retried activity records it once.
    t.text('source_key');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
  });
  await knex.raw('create index alert_events_undispatched on alert_events (created_at) where dispatched_at is null');
  await knex.raw(
    'create unique index alert_events_source on alert_events (account_id, type, source_key) where source_key is not null',
  );

  await knex.schema.createTable('account_webhook_deliveries', (t) => {
    id(t);
    account(t);
    // Null for the delivery to the event's callback_url.
    t.uuid('endpoint_id').references('account_webhook_endpoints.id').onDelete('CASCADE');
    t.uuid('event_id').notNullable().references('alert_events.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('last_status');
    t.text('last_error');
    t.timestamp('delivered_at', { useTz: true });
    stamps(t);
    t.unique(['endpoint_id', 'event_id']);
    t.check(`status in ('pending', 'delivered', 'failed')`, [], 'account_webhook_deliveries_status');
  });
  await knex.raw(
    'create unique index account_webhook_deliveries_callback on account_webhook_deliveries (event_id) where endpoint_id is null',
  );
  await knex.raw('create index account_webhook_deliveries_endpoint on account_webhook_deliveries (endpoint_id, created_at desc)');
  await knex.raw(
    'create index account_webhook_deliveries_callbacks on account_webhook_deliveries (account_id, created_at desc) where endpoint_id is null',
  );

  await knex.schema.createTable('account_callback_secrets', (t) => {
    t.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.text('secret_enc').notNullable();
    stamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['account_callback_secrets', 'account_webhook_deliveries', 'alert_events', 'account_webhook_endpoints']) {
    await knex.schema.dropTableIfExists(table);
  }
}
