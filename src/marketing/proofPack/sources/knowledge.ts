import type { Knex } from '../../../db/knex';
import { searchPassages } from '../../../knowledge/service';
import type { PackScope, RawProof } from '../types';

/** Artifacts the pack and case studies write themselves: reading them back would quote the pack to itself. */
const OWN_ARTIFACT_TYPES = ['proof_pack', 'case_study'];

/** Knowledge-base passages matching `q`, best first: internal material, so paraphrased and never named. */
export async function readKnowledge(trx: Knex.Transaction, accountId: string, scope: PackScope): Promise<RawProof[]> {
  if (!scope.q) return [];
  const hits = await searchPassages(trx, accountId, scope.q, { excludeArtifactTypes: OWN_ARTIFACT_TYPES, limit: scope.limit });
  return hits.map((hit) => ({
    kind: 'knowledge',
    consent: false,
    text: hit.text,
    attribution: null,
    sourceType: 'kb_passage',
    sourceId: hit.passage_id,
    citationId: `kb:${hit.passage_id}`,
    describes: 'Knowledge base passage (internal, paraphrased, no names)',
    names: [],
  }));
}
