import type { Knex } from 'knex';

/**
 * Where a service-hosted project is deployed (one row per environment), with the sealed secret that signs
 * the catalogue's cache-tag revalidation posts (doc3 "site revalidation_token") and the last post's outcome.
 * (account_id, project_id) references the project, so a deployment can never hang off another account's project.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('project_deployments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable();
    t.uuid('project_id').notNullable();
    t.text('environment').notNullable();
    t.text('base_url').notNullable();
    // AES-256-GCM `v1:iv:ct:tag` under a key derived from SECRET_HASH_KEY; the secret itself is shown once.
    t.text('secret_enc').notNullable();
    // Last four characters of the secret, so a person can tell which one a site holds.
    t.text('secret_hint').notNullable();
    t.text('last_revalidation_outcome');
    t.timestamp('last_revalidation_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['account_id', 'project_id'], 'project_deployments_project').references(['account_id', 'id']).inTable('projects').onDelete('CASCADE');
    t.unique(['account_id', 'project_id', 'environment'], { indexName: 'project_deployments_environment' });
    t.check(`environment in ('production', 'staging', 'dev')`, [], 'project_deployments_environment_kind');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('project_deployments');
}
