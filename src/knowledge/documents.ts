import type { Knex } from '../db/knex';
import { isUuid } from '../http/ids';
import { findDocumentByUrl, insertDocument, insertPassages } from './documentStore';
import { lockKnowledgeBase } from './knowledgeBases';
import { splitPassages } from './passages';
import type { IndexedDocument } from './types';

/**
 * Indexes a document's text as passages. A URL the knowledge base already holds is never indexed again
 * (alreadyIndexed, nothing written; `passages` is the count stored back then). The document and its passages
 * commit together, and the unique (kb, source_url) index makes a concurrent call of the same URL wait and then
 * find it, so retries never duplicate passages. A null sourceUrl always indexes a new document.
 */
export async function indexDocument(
  db: Knex,
  accountId: string,
  kbId: string,
  doc: { sourceUrl: string | null; title: string | null; text: string },
): Promise<IndexedDocument> {
  return db.transaction(async (trx) => {
    await lockKnowledgeBase(trx, accountId, kbId);
    const known = doc.sourceUrl === null ? undefined : await findDocumentByUrl(trx, accountId, kbId, doc.sourceUrl);
    if (known) return { documentId: known.id, alreadyIndexed: true, passages: known.passage_count };
    const passages = splitPassages(doc.text);
    const inserted = await insertDocument(trx, accountId, { kbId, sourceUrl: doc.sourceUrl, title: doc.title, artifactId: null, passages });
    if (!inserted) {
      const winner = await findDocumentByUrl(trx, accountId, kbId, doc.sourceUrl!);
      if (!winner) throw new Error('document conflict without a stored document');
      return { documentId: winner.id, alreadyIndexed: true, passages: winner.passage_count };
    }
    await insertPassages(trx, accountId, kbId, inserted.id, passages);
    return { documentId: inserted.id, alreadyIndexed: false, passages: passages.length };
  });
}

/** True when the account's knowledge base holds this URL (false for a malformed or another account's kb). */
export async function isUrlIndexed(db: Knex, accountId: string, kbId: string, sourceUrl: string): Promise<boolean> {
  return isUuid(kbId) && (await findDocumentByUrl(db, accountId, kbId, sourceUrl)) !== undefined;
}
