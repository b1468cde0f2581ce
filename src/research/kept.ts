import * as knowledge from '../knowledge/service';
import { ResearchClaimSchema, ResearchSourceSchema } from './result';
import { artifactKey, RESEARCH_ARTIFACT_TYPE, type StepDeps } from './steps';
import type { KeptInput, KeptResearch, ResearchClaim, ResearchSource } from '../../workflows/research.contract';

/** The entries of a stored list that have the shape asked for (the artifact is JSON anyone with the key could have written). */
function validEntries<T>(list: unknown, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }): T[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    const parsed = schema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * What a re-run keeps of the research stored before it: the parts it could not retrieve again. When its web search
 * did not run (`web`), the stored web claims and sources; when the knowledge bases could not be searched
 * (`knowledge`), the stored kb claims. Null before the first run.
 */
export async function keptStep(deps: StepDeps, input: KeptInput): Promise<KeptResearch | null> {
  const kb = await knowledge.findResearchKnowledgeBase(deps.db, input.accountId);
  if (!kb) return null;
  const stored = await knowledge.getArtifactByKey(deps.db, input.accountId, kb.id, RESEARCH_ARTIFACT_TYPE, artifactKey(input));
  if (!stored) return null;
  const json = stored.content_json;
  const claims: ResearchClaim[] = validEntries(json.claims, ResearchClaimSchema);
  const sources: ResearchSource[] = validEntries(json.sources, ResearchSourceSchema);
  return {
    researchedAt: typeof json.researched_at === 'string' ? json.researched_at : stored.updated_at,
    webClaims: input.web ? claims.filter((c) => c.kind === 'web' && c.source_url !== null) : [],
    sources: input.web ? sources : [],
    kbClaims: input.knowledge ? claims.filter((c) => c.kind === 'kb') : [],
  };
}
