import type { Knex } from 'knex';

/**
 * Knowledge bases and research (doc1).
 *
 * - `knowledge_bases`: per account; at most one of kind `research` (created on first use, research runs index the
 *   pages they use into it), any number of kind `custom`.
 * - `kb_artifacts`: typed JSON records in a knowledge base (content_research, serp_brief, … or any type a writer
 *   stored). `artifact_key` makes a writer's artifact refreshable: one row per (knowledge base, type, key), so a
 *   re-run of research updates its artifact instead of adding one.
 * - `kb_documents` and `kb_passages`: the searchable text. A document is an indexed page (unique source URL per
 *   knowledge base, so a known URL is never indexed again) or the text of an artifact (its search hits carry the
 *   artifact's id and type). Passages carry a generated `tsvector` with a GIN index; a vector column and index
 *   can be added beside it later without changing how callers search (src/knowledge/search.ts).
 * - `research_search_usage`: web-search calls per account per UTC month, for the monthly cap.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const account = (t: Knex.CreateTableBuilder) => t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('knowledge_bases', (t) => {
    id(t); account(t);
    t.text('name').notNullable();
    t.text('kind').notNullable().defaultTo('custom');
    t.text('description');
    stamps(t);
    t.check(`kind in ('research', 'custom')`, [], 'knowledge_bases_kind');
  });
  await knex.raw(`create unique index knowledge_bases_one_research on knowledge_bases (account_id) where kind = 'research'`);
  await knex.raw('create unique index knowledge_bases_account_name on knowledge_bases (account_id, lower(name))');

  await knex.schema.createTable('kb_artifacts', (t) => {
    id(t); account(t);
    t.uuid('kb_id').notNullable().references('knowledge_bases.id').onDelete('CASCADE');
    t.text('artifact_type').notNullable();
    t.text('content_id');
    t.text('artifact_key');
    t.boolean('is_verified').notNullable().defaultTo(false);
    t.jsonb('content_json').notNullable();
    stamps(t);
  });
  await knex.raw('create unique index kb_artifacts_key on kb_artifacts (kb_id, artifact_type, artifact_key) where artifact_key is not null');
  await knex.raw('create index kb_artifacts_account_updated on kb_artifacts (account_id, updated_at desc, id desc)');
  await knex.raw('create index kb_artifacts_kb_updated on kb_artifacts (kb_id, updated_at desc, id desc)');
  await knex.raw('create index kb_artifacts_account_content on kb_artifacts (account_id, content_id) where content_id is not null');

  await knex.schema.createTable('kb_documents', (t) => {
    id(t); account(t);
    t.uuid('kb_id').notNullable().references('knowledge_bases.id').onDelete('CASCADE');
    t.text('source_url');
    t.text('title');
    t.uuid('artifact_id').references('kb_artifacts.id').onDelete('CASCADE');
    t.integer('passage_count').notNullable().defaultTo(0);
    stamps(t);
  });
  await knex.raw('create unique index kb_documents_kb_url on kb_documents (kb_id, source_url) where source_url is not null');
  await knex.raw('create unique index kb_documents_artifact on kb_documents (artifact_id) where artifact_id is not null');
  await knex.raw('create index kb_documents_kb on kb_documents (kb_id, created_at desc)');

  await knex.schema.createTable('kb_passages', (t) => {
    t.bigIncrements('id');
    account(t);
    t.uuid('kb_id').notNullable().references('knowledge_bases.id').onDelete('CASCADE');
    t.uuid('document_id').notNullable().references('kb_documents.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('text').notNullable();
    t.unique(['document_id', 'position']);
  });
  await knex.raw(`alter table kb_passages add column search tsvector generated always as (to_tsvector('english', text)) stored`);
  await knex.raw('create index kb_passages_search on kb_passages using gin (search)');
  await knex.raw('create index kb_passages_account_kb on kb_passages (account_id, kb_id)');

  await knex.schema.createTable('research_search_usage', (t) => {
    account(t);
    t.date('month').notNullable();
    t.integer('calls').notNullable().defaultTo(0);
    t.primary(['account_id', 'month']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['research_search_usage', 'kb_passages', 'kb_documents', 'kb_artifacts', 'knowledge_bases']) {
    await knex.schema.dropTableIfExists(table);
  }
}
