import type { Knex } from 'knex';

/**
 * One-click unsubscribe: `email_suppressions.reason` may be `unsubscribe` (a recipient used the link of an email sent
 * with `unsubscribe` on).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table email_suppressions drop constraint email_suppressions_reason');
  await knex.raw(
    `alter table email_suppressions add constraint email_suppressions_reason
       check (reason in ('bounce', 'complaint', 'manual', 'unsubscribe'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  // The addresses stay suppressed, as if added by hand.
  await knex.raw(`update email_suppressions set reason = 'manual' where reason = 'unsubscribe'`);
  await knex.raw('alter table email_suppressions drop constraint email_suppressions_reason');
  await knex.raw(
    `alter table email_suppressions add constraint email_suppressions_reason
       check (reason in ('bounce', 'complaint', 'manual'))`,
  );
}
