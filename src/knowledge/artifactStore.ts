import type { Knex } from '../db/knex';
import { offsetOf } from '../http/pagination';
import type { ArtifactFilter } from './types';

export interface ArtifactRow {
  id: string;
  account_id: string;
  kb_id: string;
  artifact_type: string;
  content_id: string | null;
  artifact_key: string | null;
  is_verified: boolean;
  content_json: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export interface ArtifactColumns {
  kbId: string;
  artifactType: string;
  key: string | null;
  contentId: string | null;
  isVerified: boolean;
  contentJson: Record<string, unknown>;
}

/**
 * Inserts an artifact or, when one with the same (knowledge base, type, key) exists, replaces its content in place.
 * `created` tells the two apart (xmax is 0 on a fresh insert). Without a key it always inserts.
 */
export async function upsertArtifactRow(db: Knex, accountId: string, a: ArtifactColumns): Promise<{ row: ArtifactRow; created: boolean }> {
  const { rows } = await db.raw(
    `insert into kb_artifacts (account_id, kb_id, artifact_type, artifact_key, content_id, is_verified, content_json)
     values (?, ?, ?, ?, ?, ?, ?::jsonb)
     on conflict (kb_id, artifact_type, artifact_key) where artifact_key is not null do update
       set content_id = excluded.content_id, is_verified = excluded.is_verified, content_json = excluded.content_json,
           updated_at = clock_timestamp()
     returning *, (xmax = 0) as created`,
    [accountId, a.kbId, a.artifactType, a.key, a.contentId, a.isVerified, JSON.stringify(a.contentJson)],
  );
  const { created, ...row } = rows[0];
  return { row, created };
}

/** The artifact, when its knowledge base is the account's. */
export async function findArtifact(db: Knex, accountId: string, id: string): Promise<ArtifactRow | undefined> {
  return db('kb_artifacts as a')
    .join('knowledge_bases as kb', function joinKb() {
      this.on('kb.id', 'a.kb_id').andOn('kb.account_id', 'a.account_id');
    })
    .where({ 'a.account_id': accountId, 'a.id': id })
    .first('a.*');
}

/** The refreshable artifact of (knowledge base, type, key), when the knowledge base is the account's. */
export async function findArtifactByKey(
  db: Knex,
  accountId: string,
  kbId: string,
  artifactType: string,
  key: string,
): Promise<ArtifactRow | undefined> {
  return db('kb_artifacts').where({ account_id: accountId, kb_id: kbId, artifact_type: artifactType, artifact_key: key }).first();
}

/** A page of the account's artifacts matching every filter given, newest update first. */
export async function listArtifacts(db: Knex, accountId: string, filter: ArtifactFilter): Promise<{ rows: ArtifactRow[]; total: number }> {
  const filtered = () => {
    const q = db('kb_artifacts').where({ account_id: accountId });
    if (filter.kbId !== undefined) q.where({ kb_id: filter.kbId });
    if (filter.artifactType !== undefined) q.where({ artifact_type: filter.artifactType });
    if (filter.contentId !== undefined) q.where({ content_id: filter.contentId });
    if (filter.isVerified !== undefined) q.where({ is_verified: filter.isVerified });
    return q;
  };
  const [rows, [{ count }]] = await Promise.all([
    filtered()
      .select('*')
      .orderBy([
        { column: 'updated_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(filter.limit)
      .offset(offsetOf(filter)) as Promise<ArtifactRow[]>,
    filtered().count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
  ]);
  return { rows, total: Number(count) };
}
