import type { Knex } from '../db/knex';
import type { PassageHit, PassageQuery } from './types';

/** The account's passages matching `tsquery` (websearch syntax), best `ts_rank_cd` first, at most `q.limit`. */
export async function rankedPassages(db: Knex, q: PassageQuery, tsquery: string): Promise<PassageHit[]> {
  const kbFilter = q.kbIds ? `and p.kb_id in (${q.kbIds.map(() => '?').join(', ')})` : '';
  const excluded = q.excludeArtifactTypes ?? [];
  const typeFilter =
    excluded.length > 0 ? `and (a.artifact_type is null or a.artifact_type not in (${excluded.map(() => '?').join(', ')}))` : '';
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
