import type { ArtifactRow } from './artifactStore';
import type { Artifact, KnowledgeBaseSummary } from './types';

/** An artifact as every caller sees it: no account id, no refresh key, ISO 8601 timestamps. */
export const toArtifact = (row: ArtifactRow): Artifact => ({
  id: row.id,
  kb_id: row.kb_id,
  artifact_type: row.artifact_type,
  content_id: row.content_id,
  is_verified: row.is_verified,
  content_json: row.content_json,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const toKnowledgeBaseJson = (kb: KnowledgeBaseSummary) => ({
  id: kb.id,
  name: kb.name,
  kind: kb.kind,
  description: kb.description,
  document_count: Number(kb.document_count),
  artifact_count: Number(kb.artifact_count),
  passage_count: Number(kb.passage_count),
  created_at: kb.created_at.toISOString(),
  updated_at: kb.updated_at.toISOString(),
});
