import type { Knex } from 'knex';

/**
 * Scheduled sends: a message with `scheduled_at` waits in `email_messages` as `scheduled`, with its body
 * in `payload`, until its workflow (`email-scheduled:<account>:<id>`) sends it. `cancelled`: cancelled before its
 * time; `simulated`: a test key's scheduled message, simulated at its time (never relayed).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table email_messages drop constraint email_messages_status');
  await knex.raw(
    `alter table email_messages add constraint email_messages_status
       check (status in ('scheduled', 'cancelled', 'queued', 'sending', 'sent', 'simulated', 'failed'))`,
  );
  await knex.schema.alterTable('email_messages', (t) => {
    t.timestamp('scheduled_at', { useTz: true });
  });
  await knex.raw(`alter table email_messages add constraint email_messages_scheduled_at check (status <> 'scheduled' or scheduled_at is not null)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`delete from email_messages where status in ('scheduled', 'cancelled', 'simulated')`);
  await knex.raw('alter table email_messages drop constraint email_messages_scheduled_at');
  await knex.schema.alterTable('email_messages', (t) => {
    t.dropColumn('scheduled_at');
  });
  await knex.raw('alter table email_messages drop constraint email_messages_status');
  await knex.raw(`alter table email_messages add constraint email_messages_status check (status in ('queued', 'sending', 'sent', 'failed'))`);
}
