import assert from 'node:assert/strict';
import { harness } from '../helpers/harness';
import { newAccount, type TestAccount } from '../helpers/accounts';
import * as knowledge from '../../src/knowledge/service';
import { MISSING_ID } from '../marketing/grounding/fixtures';
import { artifactPassages, countRows, newKnowledgeBase, suffix, upsert } from './fixtures';

const longText = (topic: string) =>
  Array.from({ length: 12 }, (_, i) =>
    `${topic} paragraph ${i} explains one point in enough words to stand alone as a passage of its own. `.repeat(4).trim(),
  ).join('\n\n');

describe('Knowledge indexing, research knowledge base and artifacts (service)', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  describe('indexDocument', () => {
    it('indexes a document as passages at positions 0..n-1 and reports their number', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const url = `https://example.test/${suffix()}`;
      assert.equal(await knowledge.isUrlIndexed(harness().db, acct.accountId, kb.id, url), false);
      const res = await knowledge.indexDocument(harness().db, acct.accountId, kb.id, {
        sourceUrl: url,
        title: 'Guide',
        text: longText('Billing'),
      });
      assert.equal(res.alreadyIndexed, false);
      assert.equal(res.passages, 12);
      const positions = await harness().db('kb_passages').where({ document_id: res.documentId }).orderBy('position').pluck('position');
      assert.deepEqual(
        positions,
        Array.from({ length: 12 }, (_, i) => i),
      );
      assert.equal(await knowledge.isUrlIndexed(harness().db, acct.accountId, kb.id, url), true);
      assert.equal(await knowledge.isUrlIndexed(harness().db, other.accountId, kb.id, url), false, 'another account never sees it');
    });

    it('indexDocument of a known URL is already_indexed and adds no passages', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const url = `https://example.test/${suffix()}`;
      const first = await knowledge.indexDocument(harness().db, acct.accountId, kb.id, {
        sourceUrl: url,
        title: 'Guide',
        text: longText('Billing'),
      });
      const before = await countRows(acct.accountId);
      const again = await knowledge.indexDocument(harness().db, acct.accountId, kb.id, {
        sourceUrl: url,
        title: 'Changed',
        text: longText('Other words'),
      });
      assert.deepEqual(again, { documentId: first.documentId, alreadyIndexed: true, passages: first.passages });
      assert.deepEqual(await countRows(acct.accountId), before);
    });

    it('indexDocument of a known URL under concurrent calls writes one document and one set of passages', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const url = `https://example.test/${suffix()}`;
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          knowledge.indexDocument(harness().db, acct.accountId, kb.id, { sourceUrl: url, title: 'Guide', text: longText('Billing') }),
        ),
      );
      assert.equal(results.filter((r) => !r.alreadyIndexed).length, 1, 'exactly one call indexed it');
      assert.equal(new Set(results.map((r) => r.documentId)).size, 1, 'every call names the same document');
      const docs = await harness().db('kb_documents').where({ kb_id: kb.id, source_url: url });
      assert.equal(docs.length, 1);
      const passages = await harness().db('kb_passages').where({ document_id: docs[0].id }).count({ n: '*' });
      assert.equal(Number(passages[0].n), 12);
    });

    it('the same URL may be indexed once in each knowledge base; a document without URL is always new', async () => {
      const [a, b] = await Promise.all([newKnowledgeBase(acct.accountId), newKnowledgeBase(acct.accountId)]);
      const url = `https://example.test/${suffix()}`;
      const doc = { sourceUrl: url, title: 'Guide', text: 'Some text.' };
      assert.equal((await knowledge.indexDocument(harness().db, acct.accountId, a.id, doc)).alreadyIndexed, false);
      assert.equal((await knowledge.indexDocument(harness().db, acct.accountId, b.id, doc)).alreadyIndexed, false);
      const noUrl = { sourceUrl: null, title: 'Note', text: 'Some text.' };
      const [x, y] = [
        await knowledge.indexDocument(harness().db, acct.accountId, a.id, noUrl),
        await knowledge.indexDocument(harness().db, acct.accountId, a.id, noUrl),
      ];
      assert.notEqual(x.documentId, y.documentId);
    });

    it("indexing into another account's or a missing knowledge base is 404 knowledge_base_not_found and writes nothing", async () => {
      const theirs = await newKnowledgeBase(other.accountId);
      const before = await countRows(acct.accountId);
      for (const kbId of [theirs.id, MISSING_ID, 'not-a-uuid']) {
        await assert.rejects(
          knowledge.indexDocument(harness().db, acct.accountId, kbId, { sourceUrl: null, title: 't', text: 'Text.' }),
          (err: { status?: number; code?: string }) => err.status === 404 && err.code === 'knowledge_base_not_found',
        );
      }
      assert.deepEqual(await countRows(acct.accountId), before);
      assert.equal((await countRows(other.accountId)).documents, 0);
    });
  });

  describe('ensureResearchKnowledgeBase', () => {
    it('ensureResearchKnowledgeBase concurrent first calls → one row', async () => {
      const fresh = await newAccount();
      const kbs = await Promise.all(Array.from({ length: 8 }, () => knowledge.ensureResearchKnowledgeBase(harness().db, fresh.accountId)));
      assert.equal(new Set(kbs.map((kb) => kb.id)).size, 1);
      const rows = await harness().db('knowledge_bases').where({ account_id: fresh.accountId, kind: 'research' });
      assert.equal(rows.length, 1);
      assert.equal(kbs[0].kind, 'research');
      assert.equal(
        (await knowledge.ensureResearchKnowledgeBase(harness().db, fresh.accountId)).id,
        rows[0].id,
        'later calls return the same one',
      );
    });

    it('a custom knowledge base already named "Research" does not stop the research one from being created', async () => {
      const fresh = await newAccount();
      await knowledge.createKnowledgeBase(harness().db, fresh.accountId, { name: 'research' });
      const kb = await knowledge.ensureResearchKnowledgeBase(harness().db, fresh.accountId);
      assert.equal(kb.kind, 'research');
      assert.equal(kb.name, 'Research 2');
      const all = await knowledge.listKnowledgeBases(harness().db, fresh.accountId);
      assert.deepEqual(
        all.map((k) => k.kind),
        ['research', 'custom'],
        'the research knowledge base is listed first',
      );
    });

    it('a custom knowledge base name the account already uses, ignoring case, is 409 knowledge_base_name_taken', async () => {
      const fresh = await newAccount();
      await knowledge.ensureResearchKnowledgeBase(harness().db, fresh.accountId);
      await assert.rejects(
        knowledge.createKnowledgeBase(harness().db, fresh.accountId, { name: 'RESEARCH' }),
        (err: { status?: number; code?: string }) => err.status === 409 && err.code === 'knowledge_base_name_taken',
      );
      assert.equal((await countRows(fresh.accountId)).knowledgeBases, 1);
    });
  });

  describe('upsertArtifact', () => {
    it('artifact refresh by key keeps one row and replaces its passages', async () => {
      const kb = await knowledge.ensureResearchKnowledgeBase(harness().db, acct.accountId);
      const contentId = '6f1c2a4e-8b1d-4c3e-9a7f-0d2b3c4d5e6f';
      const first = await upsert(acct.accountId, kb.id, {
        artifactType: 'content_research',
        key: `content:${contentId}`,
        contentId,
        contentJson: { summary: 'Quokkas smile in every photograph.' },
      });
      assert.equal(first.created, true);
      assert.equal(first.artifact.content_id, contentId);
      assert.equal(first.artifact.content_json.content_id, contentId, 'content_json.content_id matches content_id');
      assert.deepEqual(await artifactPassages(first.artifact.id), ['Quokkas smile in every photograph.\n\n' + contentId]);

      const second = await upsert(acct.accountId, kb.id, {
        artifactType: 'content_research',
        key: `content:${contentId}`,
        contentId,
        isVerified: true,
        contentJson: { summary: 'Wombats leave cube-shaped droppings.' },
      });
      assert.equal(second.created, false);
      assert.equal(second.artifact.id, first.artifact.id);
      assert.equal(second.artifact.created_at, first.artifact.created_at);
      assert.ok(second.artifact.updated_at > first.artifact.updated_at);
      assert.equal(second.artifact.is_verified, true);
      assert.equal(
        await harness()
          .db('kb_artifacts')
          .where({ kb_id: kb.id, artifact_type: 'content_research', artifact_key: `content:${contentId}` })
          .count({ n: '*' })
          .then((r) => Number(r[0].n)),
        1,
      );
      assert.deepEqual(await artifactPassages(first.artifact.id), ['Wombats leave cube-shaped droppings.\n\n' + contentId]);
      assert.equal(
        await harness()
          .db('kb_documents')
          .where({ artifact_id: first.artifact.id })
          .count({ n: '*' })
          .then((r) => Number(r[0].n)),
        1,
      );
      assert.deepEqual(await knowledge.searchPassages(harness().db, acct.accountId, 'quokkas'), [], 'the old text is no longer found');
      assert.equal((await knowledge.searchPassages(harness().db, acct.accountId, 'wombats'))[0].metadata.artifact_id, first.artifact.id);
    });

    it('concurrent writes of the same key leave one artifact with one set of passages', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          upsert(acct.accountId, kb.id, { artifactType: 'serp_brief', key: 'same', contentJson: { text: `Version ${i} of the brief.` } }),
        ),
      );
      assert.equal(results.filter((r) => r.created).length, 1);
      assert.equal(new Set(results.map((r) => r.artifact.id)).size, 1);
      assert.equal((await artifactPassages(results[0].artifact.id)).length, 1);
    });

    it('without a key every write is a new artifact; the same key in another type or knowledge base is another artifact', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const a = await upsert(acct.accountId, kb.id, { artifactType: 'positioning', contentJson: { x: 'one' } });
      const b = await upsert(acct.accountId, kb.id, { artifactType: 'positioning', contentJson: { x: 'one' } });
      assert.ok(a.created && b.created && a.artifact.id !== b.artifact.id);
      const k1 = await upsert(acct.accountId, kb.id, { artifactType: 'positioning', key: 'k', contentJson: {} });
      const k2 = await upsert(acct.accountId, kb.id, { artifactType: 'proof_pack', key: 'k', contentJson: {} });
      assert.ok(k1.created && k2.created);
    });

    it('content_id and content_json.content_id always match: a string content_id inside the JSON fills the column', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const id = '0B7E1C9A-5D2F-4A6B-8C3D-1E2F3A4B5C6D';
      const { artifact } = await upsert(acct.accountId, kb.id, {
        artifactType: 'data_study',
        contentJson: { content_id: id, title: 'Study' },
      });
      assert.equal(artifact.content_id, id.toLowerCase());
      assert.equal(artifact.content_json.content_id, id.toLowerCase());
      const none = await upsert(acct.accountId, kb.id, { artifactType: 'data_study', contentJson: { content_id: 42 } });
      assert.equal(none.artifact.content_id, null);
      assert.equal(none.artifact.content_json.content_id, null);
    });

    it("getArtifact answers undefined for another account's, a missing or a malformed id", async () => {
      const theirs = await upsert(other.accountId, (await newKnowledgeBase(other.accountId)).id, {
        artifactType: 'case_study',
        contentJson: {},
      });
      assert.equal(await knowledge.getArtifact(harness().db, acct.accountId, theirs.artifact.id), undefined);
      assert.equal(await knowledge.getArtifact(harness().db, acct.accountId, MISSING_ID), undefined);
      assert.equal(await knowledge.getArtifact(harness().db, acct.accountId, 'nope'), undefined);
      assert.deepEqual(await knowledge.getArtifact(harness().db, other.accountId, theirs.artifact.id), theirs.artifact);
    });

    it("writing an artifact into another account's knowledge base is 404 and writes nothing", async () => {
      const theirs = await newKnowledgeBase(other.accountId);
      const before = await countRows(acct.accountId);
      await assert.rejects(
        upsert(acct.accountId, theirs.id, { artifactType: 'case_study', contentJson: { a: 'b' } }),
        (err: { status?: number; code?: string }) => err.status === 404 && err.code === 'knowledge_base_not_found',
      );
      assert.deepEqual(await countRows(acct.accountId), before);
    });
  });
});
