import type { Knex } from 'knex';

/**
 * DKIM keys and the checks of a sender domain's other DNS records.
 * - `email_dkim_keys`: RSA-2048 key pairs per domain. `selector` is `wy<n>` (n from `email_domains.dkim_selector_seq`,
 *   never reused); `public_key` is the base64 SubjectPublicKeyInfo DER published as `p=`; `private_key_enc` is the PKCS#8
 *   PEM sealed (AES-256-GCM, `v1:iv:ct:tag`) under a key derived from SECRET_HASH_KEY. `state`: `pending` (not yet
 *   seen in DNS, signs nothing), `active` (signs), `retiring` (replaced by a newer verified key since
 *   `retiring_since`; signs nothing). `status` and the check columns are the last DNS check of its record. At most one
 *   pending and one active key per domain. Domains created before this migration get their first key lazily (on the
 *   first read, verify or rotate), since only the application holds the sealing key.
 * - `email_domain_checks`: the last check of each other record (`return_path_mx`, `return_path_spf`, `dmarc`), with
 *   `target`: the return-path domain it was checked against (null for DMARC), so a changed EMAIL_RETURN_PATH_DOMAIN
 *   shows the records as not yet checked.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_domains', (t) => {
    t.integer('dkim_selector_seq').notNullable().defaultTo(0);
  });

  await knex.schema.createTable('email_dkim_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('domain_id').notNullable().references('email_domains.id').onDelete('CASCADE');
    t.text('selector').notNullable();
    t.text('public_key').notNullable();
    t.text('private_key_enc').notNullable();
    t.text('state').notNullable().defaultTo('pending');
    t.text('status').notNullable().defaultTo('pending');
    t.timestamp('verified_at', { useTz: true });
    t.timestamp('last_checked_at', { useTz: true });
    t.text('last_check_error');
    t.timestamp('activated_at', { useTz: true });
    t.timestamp('retiring_since', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['domain_id', 'selector']);
    t.check(`state in ('pending', 'active', 'retiring')`, [], 'email_dkim_keys_state');
    t.check(`status in ('pending', 'verified', 'failed')`, [], 'email_dkim_keys_status');
  });
  await knex.raw(`create unique index email_dkim_keys_one_pending on email_dkim_keys (domain_id) where state = 'pending'`);
  await knex.raw(`create unique index email_dkim_keys_one_active on email_dkim_keys (domain_id) where state = 'active'`);

  await knex.schema.createTable('email_domain_checks', (t) => {
    t.uuid('domain_id').notNullable().references('email_domains.id').onDelete('CASCADE');
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('record').notNullable();
    t.text('target');
    t.text('status').notNullable();
    t.timestamp('verified_at', { useTz: true });
    t.timestamp('last_checked_at', { useTz: true }).notNullable();
    t.text('last_check_error');
    t.primary(['domain_id', 'record']);
    t.check(`record in ('return_path_mx', 'return_path_spf', 'dmarc')`, [], 'email_domain_checks_record');
    t.check(`status in ('verified', 'failed')`, [], 'email_domain_checks_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_domain_checks');
  await knex.schema.dropTable('email_dkim_keys');
  await knex.schema.alterTable('email_domains', (t) => {
    t.dropColumn('dkim_selector_seq');
  });
}
