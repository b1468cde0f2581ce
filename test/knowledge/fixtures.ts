import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { harness } from '../helpers/harness';
import { call, type CallResult } from '../helpers/http';
import * as knowledge from '../../src/knowledge/service';

export const suffix = () => randomBytes(3).toString('hex');

export const newKnowledgeBase = (accountId: string, name = `KB ${suffix()}`) =>
  knowledge.createKnowledgeBase(harness().db, accountId, { name });

export const upsert = (accountId: string, kbId: string, input: knowledge.ArtifactInput) =>
  knowledge.upsertArtifact(harness().db, accountId, kbId, input);

/** Row counts that prove a refused or repeated write changed nothing. */
export async function countRows(accountId: string) {
  const { db } = harness();
  const count = async (table: string) => Number((await db(table).where({ account_id: accountId }).count({ n: '*' }))[0].n);
  return {
    knowledgeBases: await count('knowledge_bases'),
    artifacts: await count('kb_artifacts'),
    documents: await count('kb_documents'),
    passages: await count('kb_passages'),
  };
}

/** Passages stored for an artifact's text. */
export async function artifactPassages(artifactId: string): Promise<string[]> {
  const rows = await harness()
    .db('kb_passages as p')
    .join('kb_documents as d', 'd.id', 'p.document_id')
    .where('d.artifact_id', artifactId)
    .orderBy('p.position')
    .select('p.text');
  return rows.map((r: { text: string }) => r.text);
}

/** Sets an artifact's updated_at, so ordering tests do not depend on clock resolution. */
export async function setUpdatedAt(artifactId: string, iso: string): Promise<void> {
  await harness().db('kb_artifacts').where({ id: artifactId }).update({ updated_at: iso });
}

export const get = (token: string, path: string) => call('GET', path, { token });
export const post = (token: string, path: string, body: unknown, headers?: Record<string, string>) =>
  call('POST', path, { token, body, headers });

export function assertOk(res: CallResult, status = 200) {
  assert.equal(res.status, status, res.text);
}
