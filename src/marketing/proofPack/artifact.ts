import type { AppDeps } from '../../deps';
import { ensureResearchKnowledgeBase, upsertArtifact } from '../../knowledge/service';
import { packItem, type PackFilter } from './scope';
import { proofPack } from './service';
import type { ProofPack } from './types';

export interface StoredPack {
  artifact_id: string;
  created: boolean;
  pack: ProofPack;
}

/**
 * Builds the item's pack and keeps it as its `proof_pack` artifact (key `content:<id>`) in the research knowledge base;
 * a second call refreshes the same artifact (created false).
 */
export async function storeProofPack(
  deps: Pick<AppDeps, 'db' | 'config' | 'logger'>,
  accountId: string,
  contentId: string,
  filter: Omit<PackFilter, 'contentId'>,
): Promise<StoredPack> {
  const item = await packItem(deps.db, accountId, contentId);
  const pack = await proofPack(deps, accountId, { ...filter, contentId: item.id }, 'body');
  const kb = await ensureResearchKnowledgeBase(deps.db, accountId);
  const { artifact, created } = await upsertArtifact(deps.db, accountId, kb.id, {
    artifactType: 'proof_pack',
    key: `content:${item.id}`,
    contentId: item.id,
    contentJson: {
      content_id: item.id,
      title: `Proof pack: ${item.title}`,
      generated_at: new Date().toISOString(),
      filters: {
        avatar_id: filter.avatarId ?? null,
        journey_stage: filter.journeyStage ?? null,
        kinds: filter.kinds ?? null,
        q: filter.q ?? null,
        limit: filter.limit,
      },
      ...pack,
    },
  });
  return { artifact_id: artifact.id, created, pack };
}
