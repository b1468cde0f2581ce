import type { Knex } from '../db/knex';

export interface DocumentRow {
  id: string;
  account_id: string;
  kb_id: string;
  source_url: string | null;
  title: string | null;
  artifact_id: string | null;
  passage_count: number;
}

export interface NewDocument {
  kbId: string;
  sourceUrl: string | null;
  title: string | null;
  artifactId: string | null;
  passages: string[];
}

/**
 * Inserts a document unless its knowledge base already holds its source URL (undefined then). A concurrent insert
 * of the same URL makes this wait for the other transaction: it conflicts if that one commits, inserts if it rolls back.
 */
export async function insertDocument(db: Knex, accountId: string, doc: NewDocument): Promise<DocumentRow | undefined> {
  const { rows } = await db.raw(
    `insert into kb_documents (account_id, kb_id, source_url, title, artifact_id, passage_count) values (?, ?, ?, ?, ?, ?)
     on conflict (kb_id, source_url) where source_url is not null do nothing returning *`,
    [accountId, doc.kbId, doc.sourceUrl, doc.title, doc.artifactId, doc.passages.length],
  );
  return rows[0];
}

/** Passages of a document, positions 0..n-1, in batches that stay under Postgres' bind-parameter limit. */
export async function insertPassages(db: Knex, accountId: string, kbId: string, documentId: string, passages: string[]): Promise<void> {
  const rows = passages.map((text, position) => ({ account_id: accountId, kb_id: kbId, document_id: documentId, position, text }));
  for (let i = 0; i < rows.length; i += 1000) await db('kb_passages').insert(rows.slice(i, i + 1000));
}

export async function findDocumentByUrl(db: Knex, accountId: string, kbId: string, sourceUrl: string): Promise<DocumentRow | undefined> {
  return db('kb_documents').where({ account_id: accountId, kb_id: kbId, source_url: sourceUrl }).first();
}

/** Drops the document holding an artifact's text (its passages go with it). */
export async function deleteArtifactDocument(db: Knex, accountId: string, artifactId: string): Promise<void> {
  await db('kb_documents').where({ account_id: accountId, artifact_id: artifactId }).delete();
}
