import type { Knex } from '../db/knex';
import { isUuid } from '../http/ids';
import { fullTextIndex, type PassageIndex } from './search';
import type { PassageHit } from './types';

/**
 * The knowledge area's one entry for other areas (research, routes): knowledge bases, indexing, search, artifacts.
 * Every function takes the account first and never sees another account's rows.
 */
export type { Artifact, ArtifactFilter, ArtifactInput, IndexedDocument, KnowledgeBase, KnowledgeBaseSummary, PassageHit } from './types';
export {
  createKnowledgeBase,
  ensureResearchKnowledgeBase,
  findResearchKnowledgeBase,
  getKnowledgeBase,
  getKnowledgeBaseSummary,
  listKnowledgeBases,
  listKnowledgeBaseSummaries,
} from './knowledgeBases';
export { indexDocument, isUrlIndexed } from './documents';
export { ARTIFACT_TYPE_PATTERN, getArtifact, getArtifactByKey, listArtifacts, upsertArtifact } from './artifacts';
export { splitPassages } from './passages';

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 100;
/** Longer queries are cut here: a tsquery of thousands of words helps nobody and costs the index. */
const MAX_QUERY_CHARS = 2000;

const passageIndex: PassageIndex = fullTextIndex;

/**
 * Ranked full-text search over the account's passages (every knowledge base of the account unless kbIds narrows
 * it; an empty kbIds, or only ids that are not uuids, finds nothing). A blank query finds nothing. Passages of
 * artifacts whose type is in excludeArtifactTypes are left out before the top `limit` is taken.
 */
export async function searchPassages(
  db: Knex,
  accountId: string,
  query: string,
  options: { kbIds?: string[]; excludeArtifactTypes?: string[]; limit?: number } = {},
): Promise<PassageHit[]> {
  const text = query.trim().slice(0, MAX_QUERY_CHARS);
  if (!text) return [];
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? DEFAULT_SEARCH_LIMIT), 1), MAX_SEARCH_LIMIT);
  return passageIndex.search(db, {
    accountId,
    text,
    kbIds: options.kbIds?.filter(isUuid),
    excludeArtifactTypes: options.excludeArtifactTypes,
    limit,
  });
}
