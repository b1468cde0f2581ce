import type { Knex } from 'knex';

/**
 * Site platform integration (doc2), part 1: the account's registered OAuth clients, connections (token sealed),
 * the sites they share, project bindings and the audit rows of platform writes.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const account = (t: Knex.CreateTableBuilder) => t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('site_platform_oauth_clients', (t) => {
    id(t); account(t);
    t.text('name');
    t.text('client_id').notNullable();
    // AES-256-GCM envelope `v1:iv:ct:tag` under SITE_PLATFORM_TOKEN_ENCRYPTION_KEY.
    t.text('client_secret_enc').notNullable();
    stamps(t);
    t.unique(['account_id', 'client_id']);
  });

  await knex.schema.createTable('site_platform_connections', (t) => {
    id(t); account(t);
    // Sealed like the client secret; null once disconnected, so a disconnected row holds no credential.
    t.text('access_token_enc');
    t.text('auth_kind').notNullable();
    t.text('purpose').notNullable();
    // The project a project_override connection was made for.
    t.uuid('project_id');
    t.text('scope');
    t.text('authorized_user_email');
    t.text('workspace_id');
    t.integer('rate_limit_per_minute');
    t.text('webhook_url_token_hash');
    t.uuid('oauth_app_id').references('site_platform_oauth_clients.id').onDelete('SET NULL');
    t.timestamp('last_introspected_at', { useTz: true });
    t.timestamp('installed_at', { useTz: true });
    t.timestamp('disconnected_at', { useTz: true });
    t.timestamp('last_synced_at', { useTz: true });
    stamps(t);
    t.index(['account_id']);
    t.check(`auth_kind in ('oauth', 'site_token')`, [], 'site_platform_connections_auth_kind');
    t.check(`purpose in ('account_default', 'project_override')`, [], 'site_platform_connections_purpose');
  });
  // At most one live default per account.
  await knex.raw(`create unique index site_platform_connections_one_default on site_platform_connections (account_id)
    where purpose = 'account_default' and disconnected_at is null`);

  await knex.schema.createTable('site_platform_sites', (t) => {
    id(t); account(t);
    t.uuid('connection_id').references('site_platform_connections.id').onDelete('SET NULL');
    t.text('site_id').notNullable();
    t.text('display_name').notNullable();
    t.text('short_name');
    t.jsonb('custom_domains').notNullable().defaultTo('[]');
    t.jsonb('locales').notNullable().defaultTo('{}');
    t.timestamp('last_published_at', { useTz: true });
    t.timestamp('last_publish_requested_at', { useTz: true });
    stamps(t);
    // An agency and its client may both hold one site: unique per account, not service-wide.
    t.unique(['account_id', 'site_id']);
  });

  await knex.schema.createTable('site_platform_project_bindings', (t) => {
    id(t); account(t);
    t.uuid('project_id').notNullable().unique();
    t.text('override_mode').notNullable().defaultTo('inherit');
    t.uuid('connection_id').references('site_platform_connections.id').onDelete('SET NULL');
    // Deliberately not a foreign key: a reconnect replaces site rows.
    t.text('site_id');
    stamps(t);
    t.check(`override_mode in ('inherit', 'override', 'disabled')`, [], 'site_platform_project_bindings_mode');
  });

  await knex.schema.createTable('site_platform_audit', (t) => {
    id(t); account(t);
    t.text('action').notNullable();
    t.text('actor').notNullable();
    t.text('target');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id', 'at']);
    t.check(`action like 'platform.%'`, [], 'site_platform_audit_action');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['site_platform_audit', 'site_platform_project_bindings', 'site_platform_sites', 'site_platform_connections', 'site_platform_oauth_clients']) {
    await knex.schema.dropTableIfExists(table);
  }
}
