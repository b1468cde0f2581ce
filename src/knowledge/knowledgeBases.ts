import type { Knex } from '../db/knex';
import { isUniqueViolation } from '../db/errors';
import type { Page } from '../http/pagination';
import { isUuid } from '../http/ids';
import { knowledgeBaseNameTaken, knowledgeBaseNotFound } from './errors';
import * as store from './store';
import type { KnowledgeBase, KnowledgeBaseSummary } from './types';

const RESEARCH_DESCRIPTION = 'Pages used by research runs, and their research artifacts.';

/** "Research" unless the account already named a custom knowledge base so; then the first free variant. */
const RESEARCH_NAMES = ['Research', ...Array.from({ length: 9 }, (_, i) => `Research ${i + 2}`)];

/**
 * The account's research knowledge base, created on first use. Concurrent first calls each try the insert; the
 * partial unique index lets exactly one row in and the others read it.
 */
export async function ensureResearchKnowledgeBase(db: Knex, accountId: string): Promise<KnowledgeBase> {
  const existing = await store.findResearchKnowledgeBase(db, accountId);
  if (existing) return existing;
  for (const name of RESEARCH_NAMES) {
    const created = await store.insertResearchKnowledgeBase(db, accountId, name, RESEARCH_DESCRIPTION);
    if (created) return created;
    const winner = await store.findResearchKnowledgeBase(db, accountId);
    if (winner) return winner;
  }
  throw new Error('no free name for the research knowledge base');
}

export async function findResearchKnowledgeBase(db: Knex, accountId: string): Promise<KnowledgeBase | undefined> {
  return store.findResearchKnowledgeBase(db, accountId);
}

export async function listKnowledgeBases(db: Knex, accountId: string): Promise<KnowledgeBase[]> {
  return store.listKnowledgeBases(db, accountId);
}

export async function listKnowledgeBaseSummaries(db: Knex, accountId: string, page: Page) {
  return store.listKnowledgeBaseSummaries(db, accountId, page);
}

/** One knowledge base with its counts; 404 `knowledge_base_not_found` when malformed, missing or another account's. */
export async function getKnowledgeBaseSummary(db: Knex, accountId: string, id: string): Promise<KnowledgeBaseSummary> {
  const kb = isUuid(id) ? await store.findKnowledgeBaseSummary(db, accountId, id) : undefined;
  if (!kb) throw knowledgeBaseNotFound();
  return kb;
}

/** The knowledge base; 404 `knowledge_base_not_found` when malformed, missing or another account's. */
export async function getKnowledgeBase(db: Knex, accountId: string, id: string): Promise<KnowledgeBase> {
  const kb = isUuid(id) ? await store.findKnowledgeBase(db, accountId, id) : undefined;
  if (!kb) throw knowledgeBaseNotFound();
  return kb;
}

/** Same as getKnowledgeBase, and holds the row against deletion until the caller's transaction ends. */
export async function lockKnowledgeBase(db: Knex, accountId: string, id: string): Promise<KnowledgeBase> {
  const kb = isUuid(id) ? await store.lockKnowledgeBase(db, accountId, id) : undefined;
  if (!kb) throw knowledgeBaseNotFound();
  return kb;
}

/** A custom knowledge base; a name the account already uses, ignoring case, is 409 and writes nothing. */
export async function createKnowledgeBase(
  db: Knex,
  accountId: string,
  input: { name: string; description?: string | null },
): Promise<KnowledgeBase> {
  try {
    return await store.insertKnowledgeBase(db, accountId, { name: input.name, description: input.description ?? null });
  } catch (err) {
    if (isUniqueViolation(err, store.NAME_INDEX)) throw knowledgeBaseNameTaken();
    throw err;
  }
}
