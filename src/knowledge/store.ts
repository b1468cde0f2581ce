import type { Knex } from '../db/knex';
import { offsetOf, type Page } from '../http/pagination';
import type { KnowledgeBase, KnowledgeBaseSummary } from './types';

const table = 'knowledge_bases';

/** The unique index on (account_id, lower(name)) (migration 20261122003000). */
export const NAME_INDEX = 'knowledge_bases_account_name';

export async function findKnowledgeBase(db: Knex, accountId: string, id: string): Promise<KnowledgeBase | undefined> {
  return db(table).where({ account_id: accountId, id }).first();
}

/** The knowledge base, locked against deletion for the caller's transaction (a write into it follows). */
export async function lockKnowledgeBase(db: Knex, accountId: string, id: string): Promise<KnowledgeBase | undefined> {
  return db(table).where({ account_id: accountId, id }).forKeyShare().first();
}

export async function findResearchKnowledgeBase(db: Knex, accountId: string): Promise<KnowledgeBase | undefined> {
  return db(table).where({ account_id: accountId, kind: 'research' }).first();
}

/**
 * Inserts the account's research knowledge base unless one exists. Any unique conflict (the one-research index,
 * or a custom knowledge base already using `name`) inserts nothing and answers undefined; a concurrent insert
 * makes this wait for it, so the caller's next read sees the winner.
 */
export async function insertResearchKnowledgeBase(
  db: Knex,
  accountId: string,
  name: string,
  description: string,
): Promise<KnowledgeBase | undefined> {
  const { rows } = await db.raw(
    `insert into knowledge_bases (account_id, name, kind, description) values (?, ?, 'research', ?)
     on conflict do nothing returning *`,
    [accountId, name, description],
  );
  return rows[0];
}

export async function insertKnowledgeBase(
  db: Knex,
  accountId: string,
  fields: { name: string; description: string | null },
): Promise<KnowledgeBase> {
  const [row] = await db(table)
    .insert({ account_id: accountId, kind: 'custom', ...fields })
    .returning('*');
  return row;
}

/** Every knowledge base of the account, the research one first, then by creation. */
export async function listKnowledgeBases(db: Knex, accountId: string): Promise<KnowledgeBase[]> {
  return db(table).where({ account_id: accountId }).orderByRaw(`(kind = 'research') desc, created_at asc, id asc`);
}

const withCounts = (db: Knex) => [
  'kb.*',
  db.raw('(select count(*) from kb_documents d where d.kb_id = kb.id and d.artifact_id is null) as document_count'),
  db.raw('(select count(*) from kb_artifacts a where a.kb_id = kb.id) as artifact_count'),
  db.raw('(select count(*) from kb_passages p where p.kb_id = kb.id) as passage_count'),
];

/** A page of the account's knowledge bases with what each holds (documents count indexed texts, not artifacts'). */
export async function listKnowledgeBaseSummaries(
  db: Knex,
  accountId: string,
  page: Page,
): Promise<{ rows: KnowledgeBaseSummary[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    db(`${table} as kb`)
      .where('kb.account_id', accountId)
      .select(withCounts(db))
      .orderByRaw(`(kb.kind = 'research') desc, kb.created_at asc, kb.id asc`)
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<KnowledgeBaseSummary[]>,
    db(table).where({ account_id: accountId }).count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
  ]);
  return { rows, total: Number(count) };
}

export async function findKnowledgeBaseSummary(db: Knex, accountId: string, id: string): Promise<KnowledgeBaseSummary | undefined> {
  return db(`${table} as kb`).where({ 'kb.account_id': accountId, 'kb.id': id }).first(withCounts(db));
}
