import type { Knex } from 'knex';

/**
 * The durable send queue and per-recipient outcomes.
 * - `email_messages`: `deferred` (a temporary failure at the relay; the delivery job tries again), the attempts made,
 *   the last relay error, when the job gives up (`expires_at`) and the UTC day its daily cap was charged on.
 * - `email_recipients`: one row per envelope recipient of a stored message, with its own state: `queued`,
 *   `skipped` (suppressed: never sent), `deferred`, `sent` (the relay took it), `delayed`, `delivered`, `bounced`,
 *   `complained` or `failed`, and what the relay or a report said.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table email_messages drop constraint email_messages_status');
  await knex.raw(
    `alter table email_messages add constraint email_messages_status
       check (status in ('scheduled', 'cancelled', 'queued', 'deferred', 'sending', 'sent', 'simulated', 'failed'))`,
  );
  await knex.schema.alterTable('email_messages', (t) => {
    t.integer('attempts').notNullable().defaultTo(0);
    t.jsonb('last_error');
    t.timestamp('expires_at', { useTz: true });
    t.date('quota_day');
  });

  await knex.schema.createTable('email_recipients', (t) => {
    t.uuid('message_id').notNullable().references('email_messages.id').onDelete('CASCADE');
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('type').notNullable();
    t.text('state').notNullable();
    t.jsonb('detail').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['message_id', 'email']);
    t.check(`type in ('to', 'cc', 'bcc')`, [], 'email_recipients_type');
    t.check(
      `state in ('queued', 'skipped', 'deferred', 'sent', 'delayed', 'delivered', 'bounced', 'complained', 'failed')`,
      [],
      'email_recipients_state',
    );
    t.check('email = lower(email)', [], 'email_recipients_lower');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_recipients');
  await knex.raw(`update email_messages set status = 'queued' where status = 'deferred'`);
  await knex.schema.alterTable('email_messages', (t) => {
    t.dropColumns('attempts', 'last_error', 'expires_at', 'quota_day');
  });
  await knex.raw('alter table email_messages drop constraint email_messages_status');
  await knex.raw(
    `alter table email_messages add constraint email_messages_status
       check (status in ('scheduled', 'cancelled', 'queued', 'sending', 'sent', 'simulated', 'failed'))`,
  );
}
