import type { Knex } from 'knex';

/**
 * The account-facing job index: one row per run of an account's job, written when the API starts it, when the job
 * reports its close, and by the index watcher, which reconciles it with Temporal visibility. `GET /api/jobs` reads it,
 * so listing is bounded by Postgres, not by the server's visibility rate.
 *
 * `checked_at`: when the watcher last asked Temporal about a run the index still holds as running (a close it missed).
 * `is_closed` and `list_at` are the listing order (running first, newest first, then closed ones by close time).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table job_index (
      run_id text primary key,
      job_id text not null,
      account_id uuid not null,
      kind text not null,
      status text not null check (status in ('running', 'completed', 'failed', 'canceled', 'terminated', 'timed_out')),
      content_id text,
      connection_id text,
      project_id text,
      tags text[] not null default '{}',
      metadata jsonb not null default '{}',
      replay_of text,
      created_at timestamptz not null,
      closed_at timestamptz,
      checked_at timestamptz,
      is_closed boolean generated always as (closed_at is not null) stored,
      list_at timestamptz generated always as (coalesce(closed_at, created_at)) stored
    )`);
  await knex.raw('create index job_index_listing on job_index (account_id, is_closed, list_at desc, run_id desc)');
  await knex.raw('create index job_index_job on job_index (job_id)');
  await knex.raw('create index job_index_closed on job_index (closed_at) where closed_at is not null');
  await knex.raw('create index job_index_unchecked on job_index (checked_at nulls first, created_at) where closed_at is null');
  // One row: whether the index has taken in the runs that visibility held before it existed.
  await knex.raw(`
    create table job_index_state (
      singleton boolean primary key default true check (singleton),
      backfilled_at timestamptz
    )`);
  await knex.raw('insert into job_index_state (singleton) values (true)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table job_index_state');
  await knex.raw('drop table job_index');
}
