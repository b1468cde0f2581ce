import assert from 'node:assert/strict';
import { harness } from '../helpers/harness';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import * as knowledge from '../../src/knowledge/service';
import { createItem } from '../marketing/content/fixtures';
import { assertError, assertFieldError, MISSING_ID } from '../marketing/grounding/fixtures';
import { assertOk, countRows, get, newKnowledgeBase, post, suffix, upsert } from './fixtures';

const KBS = '/api/agent/knowledge-bases';
const kbPath = (kbId: string) => `${KBS}/${kbId}`;
const docs = (kbId: string) => `${KBS}/${kbId}/documents`;
const search = (kbId: string, query: string) => `${KBS}/${kbId}/search?${query}`;
const artifacts = (kbId: string) => `${KBS}/${kbId}/artifacts`;

const article = (topic: string) =>
  `${topic} is the subject of this article. It explains ${topic} in plain words for busy owners.\n\nA second paragraph about lunch.`;

describe('Knowledge base routes', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  describe('GET and POST /api/agent/knowledge-bases', () => {
    it('creating a custom knowledge base answers 201 with the object and zero counts', async () => {
      const res = await post(acct.agentKey, KBS, { name: '  Product docs ', description: 'Manuals' });
      assertOk(res, 201);
      assert.deepEqual(
        { ...res.body, id: undefined, created_at: undefined, updated_at: undefined },
        {
          id: undefined,
          name: 'Product docs',
          kind: 'custom',
          description: 'Manuals',
          document_count: 0,
          artifact_count: 0,
          passage_count: 0,
          created_at: undefined,
          updated_at: undefined,
        },
      );
      assert.deepEqual((await get(acct.agentKey, kbPath(res.body.id))).body, res.body);
    });

    it('a name the account already uses, ignoring case, is 409 knowledge_base_name_taken and nothing is written', async () => {
      await post(acct.agentKey, KBS, { name: 'Sales playbook' });
      const before = await countRows(acct.accountId);
      const res = await post(acct.agentKey, KBS, { name: 'SALES PLAYBOOK' });
      assertError(res, 409, 'knowledge_base_name_taken');
      assert.equal(res.body.field, 'name');
      assert.deepEqual(await countRows(acct.accountId), before);
      assertOk(await post(other.agentKey, KBS, { name: 'Sales playbook' }), 201);
    });

    it('validation 400s change nothing: name missing, blank or over 100 characters, description over 1000, unknown fields', async () => {
      const before = await countRows(acct.accountId);
      assertFieldError(await post(acct.agentKey, KBS, {}), 'body.name');
      assertFieldError(await post(acct.agentKey, KBS, { name: '   ' }), 'body.name');
      assertFieldError(await post(acct.agentKey, KBS, { name: 'x'.repeat(101) }), 'body.name');
      assertFieldError(await post(acct.agentKey, KBS, { name: 'Fine', description: 'x'.repeat(1001) }), 'body.description');
      assertFieldError(await post(acct.agentKey, KBS, { name: 'Fine', kind: 'research' }), 'body');
      assert.deepEqual(await countRows(acct.accountId), before);
    });

    it("lists the account's knowledge bases, research first, with document, artifact and passage counts", async () => {
      const fresh = await newAccount();
      const custom = await newKnowledgeBase(fresh.accountId, 'Custom one');
      const research = await knowledge.ensureResearchKnowledgeBase(harness().db, fresh.accountId);
      await knowledge.indexDocument(harness().db, fresh.accountId, research.id, {
        sourceUrl: 'https://example.test/a',
        title: 'A',
        text: 'Alpha.',
      });
      await upsert(fresh.accountId, research.id, { artifactType: 'content_research', contentJson: { summary: 'Beta.' } });
      await newKnowledgeBase(other.accountId, 'Not mine');
      const res = await get(fresh.agentKey, KBS);
      assertOk(res);
      assert.deepEqual(
        res.body.data.map((kb: { id: string; kind: string; document_count: number; artifact_count: number; passage_count: number }) => [
          kb.id,
          kb.kind,
          kb.document_count,
          kb.artifact_count,
          kb.passage_count,
        ]),
        [
          [research.id, 'research', 1, 1, 2],
          [custom.id, 'custom', 0, 0, 0],
        ],
      );
      assert.deepEqual([res.body.total, res.body.page, res.body.limit], [2, 1, 25]);
      const paged = await get(fresh.agentKey, `${KBS}?page=0&limit=-1`);
      assert.deepEqual([paged.body.page, paged.body.limit], [1, 25]);
      const second = await get(fresh.agentKey, `${KBS}?page=2&limit=1`);
      assert.deepEqual(
        second.body.data.map((kb: { id: string }) => kb.id),
        [custom.id],
      );
      assertFieldError(await get(fresh.agentKey, `${KBS}?limit=many`), 'query.limit');
    });

    it("GET /api/agent/knowledge-bases/{kbId} is 404 knowledge_base_not_found for another account's, a missing or a malformed id", async () => {
      const theirs = await newKnowledgeBase(other.accountId);
      for (const id of [theirs.id, MISSING_ID, 'not-a-uuid'])
        assertError(await get(acct.agentKey, kbPath(id)), 404, 'knowledge_base_not_found');
    });
  });

  describe('POST /api/agent/knowledge-bases/{kbId}/documents', () => {
    it('indexes a document: 201 { data: { document_id, already_indexed, passages } }', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const res = await post(acct.agentKey, docs(kb.id), {
        title: 'Heat pumps',
        text: article('Heat pumps'),
        source_url: 'https://example.test/heat',
      });
      assertOk(res, 201);
      assert.deepEqual({ ...res.body.data, document_id: undefined }, { document_id: undefined, already_indexed: false, passages: 1 });
      const stored = await harness().db('kb_documents').where({ id: res.body.data.document_id }).first();
      assert.deepEqual(
        [stored.kb_id, stored.title, stored.source_url, stored.account_id],
        [kb.id, 'Heat pumps', 'https://example.test/heat', acct.accountId],
      );
    });

    it('a source_url the knowledge base already holds is already_indexed, adds no passages, and names the stored document', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const body = { title: 'Solar', text: article('Solar panels'), source_url: `https://example.test/${suffix()}` };
      const first = await post(acct.agentKey, docs(kb.id), body);
      const before = await countRows(acct.accountId);
      const again = await post(acct.agentKey, docs(kb.id), { ...body, text: 'Completely different text.' });
      assertOk(again, 201);
      assert.deepEqual(again.body.data, { ...first.body.data, already_indexed: true });
      assert.deepEqual(await countRows(acct.accountId), before);
    });

    it('validation 400s change nothing: title and text required, text over 200,000 characters, a source_url that is not http(s)', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const before = await countRows(acct.accountId);
      assertFieldError(await post(acct.agentKey, docs(kb.id), { text: 'Hello.' }), 'body.title');
      assertFieldError(await post(acct.agentKey, docs(kb.id), { title: 'T' }), 'body.text');
      assertFieldError(await post(acct.agentKey, docs(kb.id), { title: 'T', text: '  \n ' }), 'body.text');
      assertFieldError(await post(acct.agentKey, docs(kb.id), { title: 'T', text: 'x'.repeat(200_001) }), 'body.text');
      assertFieldError(
        await post(acct.agentKey, docs(kb.id), { title: 'T', text: 'Hello.', source_url: 'ftp://example.test/x' }),
        'body.source_url',
      );
      assertFieldError(await post(acct.agentKey, docs(kb.id), { title: 'T', text: 'Hello.', source_url: 'not a url' }), 'body.source_url');
      assert.deepEqual(await countRows(acct.accountId), before);
      assertOk(await post(acct.agentKey, docs(kb.id), { title: 'T', text: 'x'.repeat(200_000) }), 201);
    });

    it("another account's, a missing or a malformed knowledge base is 404 knowledge_base_not_found and nothing is written", async () => {
      const theirs = await newKnowledgeBase(other.accountId);
      const [mine, theirsBefore] = [await countRows(acct.accountId), await countRows(other.accountId)];
      for (const id of [theirs.id, MISSING_ID, 'nope']) {
        assertError(await post(acct.agentKey, docs(id), { title: 'T', text: 'Hello.' }), 404, 'knowledge_base_not_found');
      }
      assert.deepEqual([await countRows(acct.accountId), await countRows(other.accountId)], [mine, theirsBefore]);
    });
  });

  describe('GET /api/agent/knowledge-bases/{kbId}/search', () => {
    let kbId: string;
    let artifactId: string;
    before(async () => {
      kbId = (await newKnowledgeBase(acct.accountId)).id;
      await post(acct.agentKey, docs(kbId), {
        title: 'Geothermal',
        text: article('Geothermal heating'),
        source_url: 'https://example.test/geo',
      });
      artifactId = (
        await upsert(acct.accountId, kbId, {
          artifactType: 'serp_brief',
          contentJson: { brief: 'Geothermal heating ranks for heating costs.' },
        })
      ).artifact.id;
      const elsewhere = await newKnowledgeBase(acct.accountId);
      await post(acct.agentKey, docs(elsewhere.id), { title: 'Elsewhere', text: article('Geothermal heating') });
    });

    it("answers the knowledge base's hits best first; hits from artifacts carry metadata.artifact_id and artifact_type", async () => {
      const res = await get(acct.agentKey, search(kbId, 'q=geothermal%20heating'));
      assertOk(res);
      assert.equal(res.body.data.length, 2);
      assert.ok(
        res.body.data.every((h: { kb_id: string }) => h.kb_id === kbId),
        'only this knowledge base',
      );
      const page = res.body.data.find((h: { source_url: string | null }) => h.source_url === 'https://example.test/geo');
      assert.deepEqual([page.title, page.position, page.metadata], ['Geothermal', 0, {}]);
      const fromArtifact = res.body.data.find((h: { metadata: { artifact_id?: string } }) => h.metadata.artifact_id);
      assert.deepEqual(fromArtifact.metadata, { artifact_id: artifactId, artifact_type: 'serp_brief' });
      assert.ok(res.body.data[0].score >= res.body.data[1].score);
    });

    it('limit caps the hits (a non-positive limit is the default 10, above 100 is 100); q is required', async () => {
      assert.equal((await get(acct.agentKey, search(kbId, 'q=geothermal&limit=1'))).body.data.length, 1);
      assert.equal((await get(acct.agentKey, search(kbId, 'q=geothermal&limit=0'))).body.data.length, 2);
      assertOk(await get(acct.agentKey, search(kbId, 'q=geothermal&limit=1000')));
      assertFieldError(await get(acct.agentKey, search(kbId, 'limit=5')), 'query.q');
      assertFieldError(await get(acct.agentKey, search(kbId, 'q=%20%20')), 'query.q');
      assertFieldError(await get(acct.agentKey, search(kbId, 'q=x&limit=a')), 'query.limit');
    });

    it("another account's, a missing or a malformed knowledge base is 404 knowledge_base_not_found", async () => {
      const theirs = await newKnowledgeBase(other.accountId);
      for (const id of [theirs.id, MISSING_ID, 'nope'])
        assertError(await get(acct.agentKey, search(id, 'q=geothermal')), 404, 'knowledge_base_not_found');
    });
  });

  describe('POST /api/agent/knowledge-bases/{kbId}/artifacts', () => {
    it('stores an artifact of any type: 201 { data: artifact, created: true }, readable by id and found by search', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const item = await createItem(acct.ownerToken);
      const res = await post(acct.agentKey, artifacts(kb.id), {
        artifact_type: 'competitor_teardown',
        content_id: item.id,
        is_verified: true,
        content_json: { headline: 'Rivals ignore aquaponics.' },
      });
      assertOk(res, 201);
      assert.equal(res.body.created, true);
      assert.deepEqual(
        { ...res.body.data, id: undefined, created_at: undefined, updated_at: undefined },
        {
          id: undefined,
          kb_id: kb.id,
          artifact_type: 'competitor_teardown',
          content_id: item.id,
          is_verified: true,
          content_json: { headline: 'Rivals ignore aquaponics.', content_id: item.id },
          created_at: undefined,
          updated_at: undefined,
        },
      );
      assert.deepEqual((await get(acct.agentKey, `/api/agent/knowledge-bases/artifacts/${res.body.data.id}`)).body, {
        data: res.body.data,
      });
      const hits = (await get(acct.agentKey, search(kb.id, 'q=aquaponics'))).body.data;
      assert.deepEqual(hits[0].metadata, { artifact_id: res.body.data.id, artifact_type: 'competitor_teardown' });
    });

    it('a second write with the same key refreshes the artifact: 200, created false, one row, new passages', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const body = { artifact_type: 'serp_brief', key: 'keyword:heat pumps', content_json: { brief: 'Old brief about kelp.' } };
      const first = await post(acct.agentKey, artifacts(kb.id), body);
      assertOk(first, 201);
      const second = await post(acct.agentKey, artifacts(kb.id), { ...body, content_json: { brief: 'New brief about lichen.' } });
      assertOk(second, 200);
      assert.equal(second.body.created, false);
      assert.equal(second.body.data.id, first.body.data.id);
      assert.deepEqual(second.body.data.content_json, { brief: 'New brief about lichen.' });
      assert.equal((await harness().db('kb_artifacts').where({ kb_id: kb.id })).length, 1);
      assert.deepEqual((await get(acct.agentKey, search(kb.id, 'q=kelp'))).body.data, []);
      assert.equal((await get(acct.agentKey, search(kb.id, 'q=lichen'))).body.data.length, 1);
    });

    it('a content_id that is not a content item of the account is 400 invalid_reference and nothing is written', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const theirItem = await createItem(other.ownerToken);
      const before = await countRows(acct.accountId);
      for (const body of [{ content_id: theirItem.id }, { content_id: MISSING_ID }, { content_json: { content_id: theirItem.id } }]) {
        const res = await post(acct.agentKey, artifacts(kb.id), { artifact_type: 'content_research', content_json: {}, ...body });
        assertError(res, 400, 'invalid_reference');
        assert.equal(res.body.field, 'content_id');
      }
      assert.deepEqual(await countRows(acct.accountId), before);
    });

    it('validation 400s change nothing: artifact_type pattern, content_json an object of at most 256 KB, ids, content_id agreement', async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const before = await countRows(acct.accountId);
      const write = (body: Record<string, unknown>) =>
        post(acct.agentKey, artifacts(kb.id), { artifact_type: 'serp_brief', content_json: {}, ...body });
      for (const type of ['Serp', '1brief', 'serp-brief', '', 'a'.repeat(65), 7])
        assertFieldError(await write({ artifact_type: type }), 'body.artifact_type');
      assertFieldError(await post(acct.agentKey, artifacts(kb.id), { content_json: {} }), 'body.artifact_type');
      assertFieldError(await post(acct.agentKey, artifacts(kb.id), { artifact_type: 'serp_brief' }), 'body.content_json');
      for (const json of [[1, 2], 'text', null]) assertFieldError(await write({ content_json: json }), 'body.content_json');
      assertFieldError(await write({ content_json: { blob: 'x'.repeat(256 * 1024) } }), 'body.content_json');
      assertFieldError(await write({ content_id: 'not-a-uuid' }), 'body.content_id');
      assertFieldError(await write({ content_json: { content_id: 'abc' } }), 'body.content_json.content_id');
      assertFieldError(
        await write({ content_id: MISSING_ID, content_json: { content_id: '11111111-1111-4111-8111-111111111111' } }),
        'body.content_json.content_id',
      );
      assertFieldError(await write({ is_verified: 'yes' }), 'body.is_verified');
      assertFieldError(await write({ key: '' }), 'body.key');
      assertFieldError(await write({ extra: 1 }), 'body');
      assert.deepEqual(await countRows(acct.accountId), before);
    });

    it("a body over the route's limit is 413 payload_too_large and nothing is written", async () => {
      const kb = await newKnowledgeBase(acct.accountId);
      const before = await countRows(acct.accountId);
      const res = await post(acct.agentKey, artifacts(kb.id), {
        artifact_type: 'serp_brief',
        content_json: { blob: 'x'.repeat(600 * 1024) },
      });
      assertError(res, 413, 'payload_too_large');
      assert.deepEqual(await countRows(acct.accountId), before);
    });

    it("another account's, a missing or a malformed knowledge base is 404 knowledge_base_not_found and nothing is written", async () => {
      const theirs = await newKnowledgeBase(other.accountId);
      const before = await countRows(other.accountId);
      for (const id of [theirs.id, MISSING_ID, 'nope']) {
        assertError(
          await post(acct.agentKey, artifacts(id), { artifact_type: 'serp_brief', content_json: {} }),
          404,
          'knowledge_base_not_found',
        );
      }
      assert.deepEqual(await countRows(other.accountId), before);
    });
  });

  it('permissions: reads need marketing.content:read, writes marketing.content:create; a read-only key may not write', async () => {
    const kb = await newKnowledgeBase(acct.accountId);
    const reads = [KBS, kbPath(kb.id), search(kb.id, 'q=x')];
    const writes: Array<[string, unknown]> = [
      [KBS, { name: `Denied ${suffix()}` }],
      [docs(kb.id), { title: 'T', text: 'Hello.' }],
      [artifacts(kb.id), { artifact_type: 'serp_brief', content_json: {} }],
    ];
    const before = await countRows(acct.accountId);
    const readerOnly = await newAgentKey(acct.accountId, ['marketing.content:read']);
    const writerOnly = await newAgentKey(acct.accountId, ['marketing.content:create']);
    const readOnlyWriter = await newAgentKey(acct.accountId, ['marketing.content:create', 'marketing.content:read'], true);
    for (const path of reads) {
      assertError(await get(writerOnly, path), 403, 'missing_permission');
      assertOk(await get(readerOnly, path));
    }
    for (const [path, body] of writes) {
      assertError(await post(readerOnly, path, body), 403, 'missing_permission');
      assertError(await post(readOnlyWriter, path, body), 403, 'read_only_key');
    }
    assert.deepEqual(await countRows(acct.accountId), before);
    for (const [path, body] of writes) assert.ok([200, 201].includes((await post(writerOnly, path, body)).status));
  });
});
