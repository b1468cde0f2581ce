/** The shapes the knowledge service hands to other areas (re-exported by service.ts). */

export type KnowledgeBaseKind = 'research' | 'custom';

export interface KnowledgeBase {
  id: string;
  account_id: string;
  name: string;
  kind: KnowledgeBaseKind;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A knowledge base with what it holds, for listings. */
export interface KnowledgeBaseSummary extends KnowledgeBase {
  document_count: number;
  artifact_count: number;
  passage_count: number;
}

export interface PassageHit {
  kb_id: string;
  document_id: string;
  passage_id: string;
  position: number;
  text: string;
  score: number;
  source_url: string | null;
  title: string | null;
  /** Set when the passage comes from an artifact. */
  metadata: { artifact_id?: string; artifact_type?: string };
}

export interface IndexedDocument {
  documentId: string;
  alreadyIndexed: boolean;
  passages: number;
}

export interface Artifact {
  id: string;
  kb_id: string;
  artifact_type: string;
  content_id: string | null;
  is_verified: boolean;
  content_json: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface ArtifactInput {
  artifactType: string;
  key?: string | null;
  contentId?: string | null;
  isVerified?: boolean;
  contentJson: Record<string, unknown>;
}

export interface ArtifactFilter {
  kbId?: string;
  artifactType?: string;
  contentId?: string;
  isVerified?: boolean;
  page: number;
  limit: number;
}

/** A passage search: the text, whose knowledge bases, and how many hits. */
export interface PassageQuery {
  accountId: string;
  text: string;
  /** Only these knowledge bases (all of the account's when absent). */
  kbIds?: string[];
  /** Passages of artifacts of these types are not candidates: the top `limit` is taken from the others. */
  excludeArtifactTypes?: string[];
  limit: number;
}
