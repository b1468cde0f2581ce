import assert from 'node:assert/strict';
import { createKnowledgeBase, indexDocument } from '../../src/knowledge/service';
import { searchCallsThisMonth } from '../../src/research/searchUsage';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { createItem, publishArticles, researchItem, startResearchWorld, suffix, type ResearchWorld } from './researchKit';

describe('research providers: cap, fallback extraction, no search key', function () {
  this.timeout(120_000);

  describe('with a monthly search cap of 1', () => {
    let world: ResearchWorld;
    before(async () => {
      world = await startResearchWorld({ config: { SEARCH_MONTHLY_CAP: 1 } });
    });
    after(async () => world?.stop());

    it('when the monthly search cap is hit serp is null, a warning says so, and the run goes on', async () => {
      const account = await newAccount('Capped Co');
      const keyword = `boiler efficiency ${suffix()}`;
      publishArticles(world, keyword, 2);
      const kb = await createKnowledgeBase(harness().db, account.accountId, { name: 'Boiler notes' });
      await indexDocument(harness().db, account.accountId, kb.id, {
        sourceUrl: null,
        title: 'Notes',
        text: `In 2021 our ${keyword} checks found 12% waste in 30 boilers.`,
      });
      const id = await createItem(world, account.ownerToken, { title: 'Boilers', target_keyword: keyword });

      const first = await researchItem(world, account.ownerToken, id);
      assert.equal(first.status, 201, first.text);
      assert.notEqual(first.body.serp, null);
      const searchesBefore = world.search.calls.length;

      const second = await researchItem(world, account.ownerToken, id);
      assert.equal(second.status, 201, second.text);
      assert.equal(second.body.serp, null);
      assert.ok(
        second.body.warnings.some((w: string) => /monthly web-search cap of 1 call is reached/.test(w)),
        second.body.warnings.join('\n'),
      );
      assert.equal(world.search.calls.length, searchesBefore, 'no search call past the cap');
      assert.deepEqual(second.body.sources, first.body.sources, 'the sources of the first run are kept: this run could not read any');
      assert.ok(
        second.body.claims.some((c: { kind: string }) => c.kind === 'kb'),
        'the knowledge bases were still searched',
      );
      assert.equal(second.body.artifact_id, first.body.artifact_id, 'the artifact was still written');
      assert.equal(await searchCallsThisMonth(harness().db, account.accountId), 1);
    });
  });

  describe('without a model key', () => {
    let world: ResearchWorld;
    before(async () => {
      world = await startResearchWorld({ model: false });
    });
    after(async () => world?.stop());

    it('claims come from the fallback extractor: extraction fallback and confidence_score 0', async () => {
      const account = await newAccount('No Model Co');
      const keyword = `pellet stove cost ${suffix()}`;
      const { urls } = publishArticles(world, keyword, 2);
      const id = await createItem(world, account.ownerToken, { title: 'Pellet stoves', target_keyword: keyword });

      const res = await researchItem(world, account.ownerToken, id);
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.extraction, 'fallback');
      assert.ok(res.body.claims.length > 0);
      for (const claim of res.body.claims) {
        assert.equal(claim.extraction, 'fallback');
        assert.equal(claim.confidence_score, 0);
        assert.ok(urls.includes(claim.source_url));
      }
    });
  });

  it('without a search key serp is null, a warning says so, and the run still writes its artifact', async () => {
    // The harness worker has no search or model key.
    const account = await newAccount('No Search Co');
    const created = await call('POST', '/api/marketing/content', {
      token: account.ownerToken,
      body: { title: 'No search', target_keyword: 'anything at all' },
    });
    assert.equal(created.status, 201, created.text);
    const res = await call('POST', `/api/marketing/content/${created.body.id}/research`, { token: account.ownerToken, body: {} });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.serp, null);
    assert.deepEqual(res.body.warnings, ['web search is not configured (no search API key): serp is null and no web page was read']);
    assert.equal(res.body.extraction, 'fallback');
    assert.equal(res.body.artifact_created, true);
    assert.deepEqual([res.body.claims, res.body.sources, res.body.gaps], [[], [], []]);
  });
});
