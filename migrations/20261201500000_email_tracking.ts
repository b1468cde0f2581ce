import type { Knex } from 'knex';

/**
 * Open and click tracking per sender domain.
 * - `email_domains`: `open_tracking`, `click_tracking` (both off by default) and an optional `tracking_host`, a name
 *   under the domain whose CNAME points at the service; its check is an `email_domain_checks` row `tracking_cname`
 *   whose `target` is the host it was checked against.
 * - `email_tracking_links`: the http(s) links of a message's html that were rewritten, in order; a click token names
 *   one by its index, so a redirect only ever goes where the message pointed.
 * - `email_tracking_opens` / `email_tracking_clicks`: per recipient (and link), when it was first and last seen and how
 *   often. The first is the `email.opened` / `email.clicked` event; the rest only count.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_domains', (t) => {
    t.boolean('open_tracking').notNullable().defaultTo(false);
    t.boolean('click_tracking').notNullable().defaultTo(false);
    t.text('tracking_host');
  });
  await knex.raw('alter table email_domain_checks drop constraint email_domain_checks_record');
  await knex.raw(
    `alter table email_domain_checks add constraint email_domain_checks_record
       check (record in ('return_path_mx', 'return_path_spf', 'dmarc', 'tracking_cname'))`,
  );

  await knex.schema.createTable('email_tracking_links', (t) => {
    t.uuid('message_id').primary().references('email_messages.id').onDelete('CASCADE');
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.specificType('links', 'text[]').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  const hits = (t: Knex.CreateTableBuilder) => {
    t.uuid('message_id').notNullable().references('email_messages.id').onDelete('CASCADE');
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('recipient').notNullable();
    t.timestamp('first_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('count').notNullable().defaultTo(1);
  };
  await knex.schema.createTable('email_tracking_opens', (t) => {
    hits(t);
    t.primary(['message_id', 'recipient']);
  });
  await knex.schema.createTable('email_tracking_clicks', (t) => {
    hits(t);
    t.integer('link').notNullable();
    t.primary(['message_id', 'recipient', 'link']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_tracking_clicks');
  await knex.schema.dropTable('email_tracking_opens');
  await knex.schema.dropTable('email_tracking_links');
  await knex('email_domain_checks').where('record', 'tracking_cname').delete();
  await knex.raw('alter table email_domain_checks drop constraint email_domain_checks_record');
  await knex.raw(
    `alter table email_domain_checks add constraint email_domain_checks_record
       check (record in ('return_path_mx', 'return_path_spf', 'dmarc'))`,
  );
  await knex.schema.alterTable('email_domains', (t) => {
    t.dropColumns('open_tracking', 'click_tracking', 'tracking_host');
  });
}
