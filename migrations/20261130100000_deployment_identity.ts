import type { Knex } from 'knex';

/**
 * The deployment's identity: one row, made with the schema, whose id is recorded on the Temporal namespace per task
 * queue (src/temporal/deploymentMarker.ts). A worker or API of another database finds another id there and refuses to
 * start rather than run this deployment's jobs against its own database.
 *
 * `worker_fingerprints` maps each provider-settings fingerprint a worker advertised to those settings (never a secret),
 * so a disagreement among the workers of a queue can name the providers that differ.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table deployment_identity (
      singleton boolean primary key default true check (singleton),
      deployment_id uuid not null default gen_random_uuid(),
      created_at timestamptz not null default now()
    )`);
  await knex.raw('insert into deployment_identity (singleton) values (true)');
  await knex.raw(`
    create table worker_fingerprints (
      fingerprint text primary key check (fingerprint ~ '^[0-9a-f]{12}$'),
      providers jsonb not null,
      first_seen_at timestamptz not null default now()
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table worker_fingerprints');
  await knex.raw('drop table deployment_identity');
}
