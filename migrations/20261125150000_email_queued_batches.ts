import type { Knex } from 'knex';

/**
 * Email batches beyond a key's per-second limit: their messages wait in `email_messages` as `queued`,
 * with the batch they belong to, their place in it and the message itself (`payload`, cleared once delivered or failed), until the
 * batch's workflow sends them at the key's rate.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table email_messages drop constraint email_messages_status');
  await knex.raw(`alter table email_messages add constraint email_messages_status check (status in ('queued', 'sending', 'sent', 'failed'))`);
  await knex.schema.alterTable('email_messages', (t) => {
    t.uuid('batch_id');
    t.integer('batch_index');
    t.jsonb('payload');
  });
  await knex.raw('create index email_messages_batch on email_messages (batch_id) where batch_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists email_messages_batch');
  await knex.raw(`delete from email_messages where status = 'queued'`);
  await knex.schema.alterTable('email_messages', (t) => {
    t.dropColumn('payload');
    t.dropColumn('batch_index');
    t.dropColumn('batch_id');
  });
  await knex.raw('alter table email_messages drop constraint email_messages_status');
  await knex.raw(`alter table email_messages add constraint email_messages_status check (status in ('sending', 'sent', 'failed'))`);
}
