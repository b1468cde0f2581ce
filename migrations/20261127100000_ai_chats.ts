import type { Knex } from 'knex';

/**
 * Department AI chats. A session per account and department, optionally pinned to a project; its turns
 * (each one a workflow `ai-turn:<account>:<turn>`), holding the turn's model transcript so workflow history carries
 * only ids; and each turn's events with a gap-free `seq` (the poll's `since_seq`), deduplicated by `key` so an
 * activity retry never records an event twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ai_sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('department').notNullable();
    t.uuid('project_id');
    t.text('created_by').notNullable();
    t.integer('turns').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['account_id', 'id']);
    t.check(`department in ('marketing')`, [], 'ai_sessions_department');
  });
  await knex.raw(`alter table ai_sessions add constraint ai_sessions_project_fk
    foreign key (account_id, project_id) references projects (account_id, id) on delete set null (project_id)`);

  await knex.schema.createTable('ai_turns', (t) => {
    t.uuid('id').primary();
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('session_id').notNullable();
    t.uuid('project_id');
    t.text('workflow_id').notNullable();
    t.text('request_hash').notNullable();
    t.jsonb('caller').notNullable();
    t.text('message').notNullable();
    t.text('status').notNullable().defaultTo('running');
    t.text('response');
    t.jsonb('tool_calls').notNullable().defaultTo('[]');
    t.jsonb('data_updates').notNullable().defaultTo('[]');
    t.jsonb('transcript').notNullable().defaultTo('[]');
    t.jsonb('pending_call');
    t.jsonb('error');
    t.integer('steps').notNullable().defaultTo(0);
    t.integer('last_seq').notNullable().defaultTo(0);
    t.timestamp('progress_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.foreign(['account_id', 'session_id']).references(['account_id', 'id']).inTable('ai_sessions').onDelete('CASCADE');
    t.index(['account_id', 'session_id', 'created_at']);
    t.check(`status in ('running', 'awaiting_confirmation', 'completed', 'failed', 'cancelled')`, [], 'ai_turns_status');
  });

  await knex.schema.createTable('ai_turn_events', (t) => {
    t.uuid('turn_id').notNullable().references('ai_turns.id').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.text('key').notNullable();
    t.text('type').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['turn_id', 'seq']);
    t.unique(['turn_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ai_turn_events');
  await knex.schema.dropTable('ai_turns');
  await knex.schema.dropTable('ai_sessions');
}
