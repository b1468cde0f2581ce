import type { Knex } from '../db/knex';
import type { PassageHit } from './types';

export interface PassageQuery {
  accountId: string;
  text: string;
  /** Only these knowledge bases (all of the account's when absent). */
  kbIds?: string[];
  /** Passages of artifacts of these types are not candidates: the top `limit` is taken from the others. */
  excludeArtifactTypes?: string[];
  limit: number;
}

/**
 * The seam between callers and how passages are found. Today: Postgres full text. A vector index (an embedding
 * column beside `search`) can implement this too, or be blended with it, without callers changing.
 */
export interface PassageIndex {
  search(db: Knex, query: PassageQuery): Promise<PassageHit[]>;
}

/** The query's words, for the OR fallback; websearch syntax (quotes, `-`, `or`) is dropped. */
const wordsOf = (text: string): string[] => (text.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.toLowerCase() !== 'or');

async function rankedMatches(db: Knex, q: PassageQuery, tsquery: string): Promise<PassageHit[]> {
  const kbFilter = q.kbIds ? `and p.kb_id in (${q.kbIds.map(() => '?').join(', ')})` : '';
  const excluded = q.excludeArtifactTypes ?? [];
  const typeFilter = excluded.length > 0 ? `and (a.artifact_type is null or a.artifact_type not in (${excluded.map(() => '?').join(', ')}))` : '';
  const { rows } = await db.raw(
    `select p.kb_id, p.document_id, p.id::text as passage_id, p.position, p.text, ts_rank_cd(p.search, q.query) as score,
            d.source_url, d.title, d.artifact_id, a.artifact_type
       from websearch_to_tsquery('english', ?) as q(query)
       join kb_passages p on p.search @@ q.query
       join kb_documents d on d.id = p.document_id and d.account_id = p.account_id
       left join kb_artifacts a on a.id = d.artifact_id and a.account_id = d.account_id
      where p.account_id = ? ${kbFilter} ${typeFilter}
      order by score desc, p.id asc
      limit ?`,
    [tsquery, q.accountId, ...(q.kbIds ?? []), ...excluded, q.limit],
  );
  return rows.map(({ artifact_id, artifact_type, ...hit }: PassageHit & { artifact_id: string | null; artifact_type: string | null }) => ({
    ...hit,
    metadata: artifact_id ? { artifact_id, artifact_type: artifact_type ?? undefined } : {},
  }));
}

/**
 * Postgres full text: `websearch_to_tsquery` (every word must match) ranked with `ts_rank_cd`; when that finds
 * nothing, any of the words may match, so a long keyword still finds the passages that share part of it.
 */
export const fullTextIndex: PassageIndex = {
  async search(db, q) {
    if (q.kbIds?.length === 0) return [];
    const all = await rankedMatches(db, q, q.text);
    if (all.length > 0) return all;
    const words = wordsOf(q.text);
    return words.length > 1 ? rankedMatches(db, q, words.join(' or ')) : [];
  },
};
