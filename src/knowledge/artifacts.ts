import type { Knex } from '../db/knex';
import { isUuid } from '../http/ids';
import { invalidField } from '../http/fieldErrors';
import { findArtifact, findArtifactByKey, listArtifacts as listArtifactRows, upsertArtifactRow } from './artifactStore';
import { deleteArtifactDocument, insertDocument, insertPassages } from './documentStore';
import { lockKnowledgeBase } from './knowledgeBases';
import { splitPassages, textOfJson } from './passages';
import { toArtifact } from './representation';
import type { Artifact, ArtifactFilter, ArtifactInput } from './types';

/** Lowercase snake_case, starting with a letter: `content_research`, `serp_brief`, or a writer's own type. */
export const ARTIFACT_TYPE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** content_id and content_json.content_id always agree: the column wins, else a string in the JSON is taken. */
function alignContentId(input: ArtifactInput): { contentId: string | null; contentJson: Record<string, unknown> } {
  const fromJson = input.contentJson.content_id;
  const given = input.contentId ?? (typeof fromJson === 'string' ? fromJson : null);
  // Content ids are uuids; one spelling keeps the text column's exact-match filter working.
  const contentId = given !== null && isUuid(given) ? given.toLowerCase() : given;
  if (contentId === null && !('content_id' in input.contentJson)) return { contentId, contentJson: input.contentJson };
  return { contentId, contentJson: { ...input.contentJson, content_id: contentId } };
}

const titleOf = (type: string, json: Record<string, unknown>): string =>
  (typeof json.title === 'string' && json.title.trim()) || (typeof json.topic === 'string' && json.topic.trim()) || type;

/**
 * Writes an artifact. With a key there is one artifact per (kb, type, key): a second call replaces its content_id,
 * is_verified (false when absent) and content_json (created false). The artifact's text (its JSON's string values)
 * is indexed as a document linked to it, so search hits name the artifact; a refresh replaces those passages in
 * the same transaction, so a search never sees both versions or neither.
 */
export async function upsertArtifact(
  db: Knex,
  accountId: string,
  kbId: string,
  input: ArtifactInput,
): Promise<{ artifact: Artifact; created: boolean }> {
  if (!ARTIFACT_TYPE_PATTERN.test(input.artifactType)) {
    throw invalidField(
      'body.artifact_type',
      'must be lowercase letters, digits and underscores, starting with a letter, at most 64 characters',
    );
  }
  const { contentId, contentJson } = alignContentId(input);
  return db.transaction(async (trx) => {
    await lockKnowledgeBase(trx, accountId, kbId);
    const { row, created } = await upsertArtifactRow(trx, accountId, {
      kbId,
      artifactType: input.artifactType,
      key: input.key ?? null,
      contentId,
      isVerified: input.isVerified ?? false,
      contentJson,
    });
    if (!created) await deleteArtifactDocument(trx, accountId, row.id);
    const passages = splitPassages(textOfJson(contentJson));
    const doc = await insertDocument(trx, accountId, {
      kbId,
      sourceUrl: null,
      title: titleOf(row.artifact_type, contentJson),
      artifactId: row.id,
      passages,
    });
    await insertPassages(trx, accountId, kbId, doc!.id, passages);
    return { artifact: toArtifact(row), created };
  });
}

/** The artifact when its knowledge base is the account's; undefined for a malformed, missing or foreign id. */
export async function getArtifact(db: Knex, accountId: string, artifactId: string): Promise<Artifact | undefined> {
  const row = isUuid(artifactId) ? await findArtifact(db, accountId, artifactId) : undefined;
  return row && toArtifact(row);
}

/** The artifact an upsert with this (knowledge base, type, key) refreshes; undefined before the first one. */
export async function getArtifactByKey(
  db: Knex,
  accountId: string,
  kbId: string,
  artifactType: string,
  key: string,
): Promise<Artifact | undefined> {
  const row = await findArtifactByKey(db, accountId, kbId, artifactType, key);
  return row && toArtifact(row);
}

/** A page of the account's artifacts, newest update first; a malformed kbId matches nothing. */
export async function listArtifacts(db: Knex, accountId: string, filter: ArtifactFilter): Promise<{ rows: Artifact[]; total: number }> {
  if (filter.kbId !== undefined && !isUuid(filter.kbId)) return { rows: [], total: 0 };
  const contentId = filter.contentId !== undefined && isUuid(filter.contentId) ? filter.contentId.toLowerCase() : filter.contentId;
  const { rows, total } = await listArtifactRows(db, accountId, { ...filter, contentId });
  return { rows: rows.map(toArtifact), total };
}
