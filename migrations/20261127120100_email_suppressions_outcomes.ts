import type { Knex } from 'knex';

/**
 * Suppressions and delivery outcomes.
 * - `email_suppressions`: addresses an account no longer sends to (lower case, one row per account and address):
 *   `bounce` (a hard bounce), `complaint` (a feedback report) or `manual` (added through the API).
 * - `email_message_events`: what the return path learnt about a message per recipient (delivered, bounced,
 *   complained, delivery_delayed), with the report's details; `email_events` stays the webhook outbox.
 * - `email_messages`: the times of the first outcome of each kind, the latest outcome, and every envelope recipient
 *   (to, cc and bcc) so a report naming someone who never received the message is ignored.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_suppressions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('reason').notNullable();
    t.uuid('message_id').references('email_messages.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['account_id', 'email']);
    t.check(`reason in ('bounce', 'complaint', 'manual')`, [], 'email_suppressions_reason');
    t.check('email = lower(email)', [], 'email_suppressions_lower');
  });
  await knex.raw('create index email_suppressions_account_created on email_suppressions (account_id, created_at desc)');

  await knex.schema.createTable('email_message_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('message_id').notNullable().references('email_messages.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('recipient');
    t.jsonb('detail').notNullable().defaultTo('{}');
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index email_message_events_message on email_message_events (message_id, occurred_at)');

  await knex.schema.alterTable('email_messages', (t) => {
    t.specificType('recipients', 'text[]');
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('bounced_at', { useTz: true });
    t.timestamp('complained_at', { useTz: true });
    t.timestamp('delayed_at', { useTz: true });
    t.text('last_event');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_messages', (t) => {
    t.dropColumns('recipients', 'delivered_at', 'bounced_at', 'complained_at', 'delayed_at', 'last_event');
  });
  await knex.schema.dropTable('email_message_events');
  await knex.schema.dropTable('email_suppressions');
}
