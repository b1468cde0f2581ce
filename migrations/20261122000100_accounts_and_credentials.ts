import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('name').notNullable();
    t.text('role').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`role in ('owner', 'admin', 'member')`);
  });
  await knex.raw('create unique index users_account_email_unique on users (account_id, lower(email))');

  await knex.schema.createTable('session_tokens', (t) => {
    t.uuid('id').primary();
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('secret_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.index(['account_id', 'user_id']);
  });

  await knex.schema.createTable('agent_keys', (t) => {
    t.uuid('id').primary();
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.specificType('permissions', 'text[]').notNullable();
    t.boolean('read_only').notNullable().defaultTo(false);
    t.text('secret_hash').notNullable();
    t.text('token_hint').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.index(['account_id', 'created_at']);
  });

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('route').notNullable();
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable();
    t.integer('response_status');
    t.jsonb('response_headers');
    // Sealed (AES-256-GCM): a replayed response may carry a secret shown once, such as a new key's token.
    t.text('response_body_sealed');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.primary(['account_id', 'route', 'key']);
    t.check(`state in ('in_progress', 'completed')`);
  });
  await knex.raw('create index idempotency_keys_created_at on idempotency_keys (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['idempotency_keys', 'agent_keys', 'session_tokens', 'users', 'accounts']) {
    await knex.schema.dropTableIfExists(table);
  }
}
