import type { Knex } from '../db/knex';
import { rankedPassages } from './searchStore';
import type { PassageHit, PassageQuery } from './types';

export type { PassageQuery };

/**
 * The seam between callers and how passages are found. Today: Postgres full text. A vector index (an embedding
 * column beside `search`) can implement this too, or be blended with it, without callers changing.
 */
export interface PassageIndex {
  search(db: Knex, query: PassageQuery): Promise<PassageHit[]>;
}

/** The query's words, for the OR fallback; websearch syntax (quotes, `-`, `or`) is dropped. */
const wordsOf = (text: string): string[] => (text.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.toLowerCase() !== 'or');

/**
 * Postgres full text: `websearch_to_tsquery` (every word must match) ranked with `ts_rank_cd`; when that finds
 * nothing, any of the words may match, so a long keyword still finds the passages that share part of it.
 */
export const fullTextIndex: PassageIndex = {
  async search(db, q) {
    if (q.kbIds?.length === 0) return [];
    const all = await rankedPassages(db, q, q.text);
    if (all.length > 0) return all;
    const words = wordsOf(q.text);
    return words.length > 1 ? rankedPassages(db, q, words.join(' or ')) : [];
  },
};
