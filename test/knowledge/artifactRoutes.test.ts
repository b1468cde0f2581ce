import assert from 'node:assert/strict';
import { harness } from '../helpers/harness';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import * as knowledge from '../../src/knowledge/service';
import { assertError, assertFieldError, MISSING_ID } from '../marketing/grounding/fixtures';
import { assertOk, get, newKnowledgeBase, setUpdatedAt, upsert } from './fixtures';

const LIST = '/api/agent/knowledge-bases/artifacts';
const one = (id: string) => `/api/agent/knowledge-bases/artifacts/${id}`;
const ofKb = (kbId: string) => `/api/agent/marketing/knowledge-bases/${kbId}/artifacts`;
const RESEARCH = '/api/agent/marketing/content/research';

const CONTENT_A = '11111111-1111-4111-8111-111111111111';
const CONTENT_B = '22222222-2222-4222-8222-222222222222';

const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((a) => a.id);

describe('Knowledge artifact routes (read)', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let researchKbId: string;
  let customKbId: string;
  let foreignKbId: string;
  let foreignArtifactId: string;
  /** The account's artifacts, newest update first. */
  let newestFirst: knowledge.Artifact[];

  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    researchKbId = (await knowledge.ensureResearchKnowledgeBase(harness().db, acct.accountId)).id;
    customKbId = (await newKnowledgeBase(acct.accountId)).id;
    const specs: Array<[string, knowledge.ArtifactInput]> = [
      [researchKbId, { artifactType: 'content_research', contentId: CONTENT_A, isVerified: true, contentJson: { n: 0 } }],
      [researchKbId, { artifactType: 'content_research', contentId: CONTENT_B, contentJson: { n: 1 } }],
      [researchKbId, { artifactType: 'serp_brief', contentId: CONTENT_A, contentJson: { n: 2 } }],
      [customKbId, { artifactType: 'positioning', isVerified: true, contentJson: { n: 3 } }],
      [customKbId, { artifactType: 'content_research', contentId: CONTENT_A, contentJson: { n: 4 } }],
    ];
    const written: knowledge.Artifact[] = [];
    for (const [i, [kbId, input]] of specs.entries()) {
      const { artifact } = await upsert(acct.accountId, kbId, input);
      await setUpdatedAt(artifact.id, `2026-01-0${i + 1}T00:00:00Z`);
      written.push((await knowledge.getArtifact(harness().db, acct.accountId, artifact.id))!);
    }
    newestFirst = written.reverse();
    foreignKbId = (await knowledge.ensureResearchKnowledgeBase(harness().db, other.accountId)).id;
    foreignArtifactId = (
      await upsert(other.accountId, foreignKbId, { artifactType: 'content_research', contentId: CONTENT_A, contentJson: {} })
    ).artifact.id;
  });

  describe('GET /api/agent/knowledge-bases/artifacts', () => {
    it("lists the account's artifacts newest updated first as { data, total, page, limit } with page 1 and limit 20 by default", async () => {
      const res = await get(acct.agentKey, LIST);
      assertOk(res);
      assert.deepEqual(res.body, { data: newestFirst, total: 5, page: 1, limit: 20 });
      assert.ok(!ids(res).includes(foreignArtifactId), "never another account's");
    });

    it('a non-positive page or limit is read as the default (page=0, limit=-5)', async () => {
      for (const query of ['page=0&limit=-5', 'page=-1&limit=0', 'page=&limit=']) {
        const res = await get(acct.agentKey, `${LIST}?${query}`);
        assertOk(res);
        assert.deepEqual([res.body.page, res.body.limit, res.body.data.length], [1, 20, 5], query);
      }
    });

    it('a limit over 100 is read as 100 (limit=500)', async () => {
      const res = await get(acct.agentKey, `${LIST}?limit=500`);
      assertOk(res);
      assert.equal(res.body.limit, 100);
    });

    it('page and limit page through the list, total counting every match', async () => {
      const res = await get(acct.agentKey, `${LIST}?page=2&limit=2`);
      assertOk(res);
      assert.deepEqual(
        ids(res),
        newestFirst.slice(2, 4).map((a) => a.id),
      );
      assert.deepEqual([res.body.total, res.body.page, res.body.limit], [5, 2, 2]);
      const past = await get(acct.agentKey, `${LIST}?page=9&limit=2`);
      assert.deepEqual([past.body.data, past.body.total], [[], 5]);
    });

    it('a page or limit that is not a whole number is 400', async () => {
      assertFieldError(await get(acct.agentKey, `${LIST}?page=two`), 'query.page');
      assertFieldError(await get(acct.agentKey, `${LIST}?limit=1.5`), 'query.limit');
      assertFieldError(await get(acct.agentKey, `${LIST}?limit=ten`), 'query.limit');
    });

    it('filters artifact_type, kb_id, content_id and is_verified combine', async () => {
      const expect = async (query: string, pick: (a: knowledge.Artifact) => boolean) => {
        const res = await get(acct.agentKey, `${LIST}?${query}`);
        assertOk(res);
        const wanted = newestFirst.filter(pick);
        assert.deepEqual(
          ids(res),
          wanted.map((a) => a.id),
          query,
        );
        assert.equal(res.body.total, wanted.length, query);
      };
      await expect('artifact_type=content_research', (a) => a.artifact_type === 'content_research');
      await expect(`kb_id=${customKbId}`, (a) => a.kb_id === customKbId);
      await expect(`content_id=${CONTENT_A}`, (a) => a.content_id === CONTENT_A);
      await expect(`content_id=${CONTENT_A.toUpperCase()}`, (a) => a.content_id === CONTENT_A);
      await expect('is_verified=true', (a) => a.is_verified);
      await expect('is_verified=false', (a) => !a.is_verified);
      await expect(
        `artifact_type=content_research&kb_id=${researchKbId}&content_id=${CONTENT_A}&is_verified=true`,
        (a) => a.artifact_type === 'content_research' && a.kb_id === researchKbId && a.content_id === CONTENT_A && a.is_verified,
      );
      await expect(`kb_id=${foreignKbId}`, () => false);
      await expect(`kb_id=${MISSING_ID}`, () => false);
    });

    it('a non-UUID kb_id or content_id filter is 400, as are an is_verified other than true/false and an unknown parameter', async () => {
      assertFieldError(await get(acct.agentKey, `${LIST}?kb_id=not-a-uuid`), 'query.kb_id');
      assertFieldError(await get(acct.agentKey, `${LIST}?content_id=12345`), 'query.content_id');
      assertFieldError(await get(acct.agentKey, `${LIST}?is_verified=yes`), 'query.is_verified');
      assertFieldError(await get(acct.agentKey, `${LIST}?artifact_type=Not%20A%20Type`), 'query.artifact_type');
      assertFieldError(await get(acct.agentKey, `${LIST}?sort=asc`), 'query');
    });
  });

  describe('GET /api/agent/knowledge-bases/artifacts/{artifactId}', () => {
    it('answers { data: artifact }', async () => {
      const res = await get(acct.agentKey, one(newestFirst[0].id));
      assertOk(res);
      assert.deepEqual(res.body, { data: newestFirst[0] });
      assert.deepEqual(Object.keys(res.body.data).sort(), [
        'artifact_type',
        'content_id',
        'content_json',
        'created_at',
        'id',
        'is_verified',
        'kb_id',
        'updated_at',
      ]);
    });

    it('a malformed artifact id is 400', async () => {
      for (const bad of ['not-a-uuid', '12345', `${MISSING_ID}x`])
        assertFieldError(await get(acct.agentKey, one(bad)), 'params.artifactId');
    });

    it("an artifact whose knowledge base is another account's is 404 artifact_not_found, like a missing one", async () => {
      assertError(await get(acct.agentKey, one(foreignArtifactId)), 404, 'artifact_not_found');
      assertError(await get(acct.agentKey, one(MISSING_ID)), 404, 'artifact_not_found');
      assertOk(await get(other.agentKey, one(foreignArtifactId)));
    });
  });

  describe('GET /api/agent/marketing/knowledge-bases/{kbId}/artifacts', () => {
    it('lists the artifacts of one knowledge base, with the same filters and paging', async () => {
      const res = await get(acct.agentKey, ofKb(customKbId));
      assertOk(res);
      const wanted = newestFirst.filter((a) => a.kb_id === customKbId);
      assert.deepEqual(res.body, { data: wanted, total: wanted.length, page: 1, limit: 20 });
      const filtered = await get(acct.agentKey, `${ofKb(researchKbId)}?artifact_type=content_research&is_verified=false&page=0&limit=-5`);
      assertOk(filtered);
      assert.deepEqual(
        ids(filtered),
        newestFirst.filter((a) => a.kb_id === researchKbId && a.artifact_type === 'content_research' && !a.is_verified).map((a) => a.id),
      );
      assert.deepEqual([filtered.body.page, filtered.body.limit], [1, 20]);
      assert.equal((await get(acct.agentKey, `${ofKb(researchKbId)}?limit=500`)).body.limit, 100);
      assertFieldError(await get(acct.agentKey, `${ofKb(researchKbId)}?limit=x`), 'query.limit');
      assertFieldError(await get(acct.agentKey, `${ofKb(researchKbId)}?kb_id=${researchKbId}`), 'query');
    });

    it('a knowledge base of another account, a missing or a malformed id is 404 knowledge_base_not_found', async () => {
      for (const kbId of [foreignKbId, MISSING_ID, 'not-a-uuid'])
        assertError(await get(acct.agentKey, ofKb(kbId)), 404, 'knowledge_base_not_found');
    });
  });

  describe('GET /api/agent/marketing/content/research', () => {
    it('before any research run the list is empty and no research knowledge base is created by reading it', async () => {
      const fresh = await newAccount();
      const res = await get(fresh.agentKey, `${RESEARCH}?page=0&limit=500`);
      assertOk(res);
      assert.deepEqual(res.body, { data: [], total: 0, page: 1, limit: 100 });
      assert.equal((await harness().db('knowledge_bases').where({ account_id: fresh.accountId })).length, 0);
    });

    it("lists the artifacts of the account's research knowledge base only, with filters artifact_type, content_id, is_verified", async () => {
      const res = await get(acct.agentKey, RESEARCH);
      assertOk(res);
      const research = newestFirst.filter((a) => a.kb_id === researchKbId);
      assert.deepEqual(res.body, { data: research, total: research.length, page: 1, limit: 20 });
      const filtered = await get(acct.agentKey, `${RESEARCH}?artifact_type=content_research&content_id=${CONTENT_A}&is_verified=true`);
      assert.deepEqual(
        ids(filtered),
        research.filter((a) => a.artifact_type === 'content_research' && a.content_id === CONTENT_A && a.is_verified).map((a) => a.id),
      );
      const paged = await get(acct.agentKey, `${RESEARCH}?page=2&limit=1`);
      assert.deepEqual(ids(paged), [research[1].id]);
      assertFieldError(await get(acct.agentKey, `${RESEARCH}?content_id=nope`), 'query.content_id');
      assertFieldError(await get(acct.agentKey, `${RESEARCH}?page=1e3`), 'query.page');
    });
  });

  it('a key without marketing.content:read is 403 on every artifact read route', async () => {
    const key = await newAgentKey(acct.accountId, ['marketing.content:create', 'crm:read']);
    for (const path of [LIST, one(newestFirst[0].id), ofKb(customKbId), RESEARCH]) {
      assertError(await get(key, path), 403, 'missing_permission');
    }
    const readOnly = await newAgentKey(acct.accountId, ['marketing.content:read'], true);
    for (const path of [LIST, one(newestFirst[0].id), ofKb(customKbId), RESEARCH]) assertOk(await get(readOnly, path));
  });
});
