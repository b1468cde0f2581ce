import assert from 'node:assert/strict';
import { createKnowledgeBase, indexDocument } from '../../src/knowledge/service';
import { FABRICATED_QUOTE } from '../../src/sandbox/model';
import { articleHtml } from '../../src/sandbox/pages';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import {
  activityEvents,
  countRows,
  createItem,
  publishArticles,
  researchItem,
  researchTopic,
  startResearchWorld,
  suffix,
  type ResearchWorld,
} from './researchKit';

describe('research run (POST /api/marketing/content/{id}/research)', function () {
  this.timeout(120_000);
  let world: ResearchWorld;
  let owner: TestAccount;

  before(async () => {
    world = await startResearchWorld();
    owner = await newAccount('Research Co');
  });
  after(async () => world?.stop());

  it("runs in the spec's order: every knowledge base, then the web search, then the pages (concurrently), indexing, the artifact, the stamp last", async () => {
    const keyword = `heat pump savings ${suffix()}`;
    const { urls } = publishArticles(world, keyword, 3);
    const id = await createItem(world, owner.ownerToken, { title: 'Heat pumps in 2026', target_keyword: keyword });

    const res = await researchItem(world, owner.ownerToken, id, { key: `order-${suffix()}` });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      res.body.serp.results.map((r: { url: string }) => r.url),
      urls,
    );
    assert.deepEqual(
      res.body.serp.results.map((r: { position: number }) => r.position),
      [1, 2, 3],
    );
    assert.equal(res.body.serp.query, keyword);

    const events = await activityEvents(res.body.run_id);
    const scheduled = events.filter((e) => e.event === 'scheduled').map((e) => e.type);
    assert.deepEqual(scheduled, [
      'researchSubject',
      'researchKnowledge',
      'researchSearch',
      'researchPage',
      'researchPage',
      'researchPage',
      'indexResearchPage',
      'indexResearchPage',
      'indexResearchPage',
      'writeResearchArtifact',
      'stampContentResearch',
      'recordJobClosed', // not a research step: every account job reports its close (job.completed, callback_url)
    ]);
    const at = (type: string, event: string) => events.filter((e) => e.type === type && e.event === event).map((e) => e.id);
    assert.ok(
      Math.max(...at('researchKnowledge', 'completed')) < Math.min(...at('researchSearch', 'scheduled')),
      'search starts after the knowledge bases',
    );
    assert.ok(
      Math.max(...at('researchSearch', 'completed')) < Math.min(...at('researchPage', 'scheduled')),
      'pages start after the search',
    );
    assert.ok(
      Math.max(...at('researchPage', 'scheduled')) < Math.min(...at('researchPage', 'completed')),
      'every page was requested before the first finished',
    );
    assert.ok(
      Math.max(...at('writeResearchArtifact', 'completed')) < Math.min(...at('stampContentResearch', 'scheduled')),
      'the stamp comes after the artifact',
    );
  });

  it("kb claims come from the account's knowledge bases with source_url null; web claims name their page", async () => {
    const keyword = `solar inverter lifespan ${suffix()}`;
    const { urls } = publishArticles(world, keyword, 2);
    const kb = await createKnowledgeBase(harness().db, owner.accountId, { name: `Field notes ${suffix()}` });
    const kbText = `Our ${keyword} notes. In 2023 our crews replaced 140 inverters and the median ${keyword} was 11 years.`;
    await indexDocument(harness().db, owner.accountId, kb.id, { sourceUrl: null, title: 'Crew notes', text: kbText });
    const id = await createItem(world, owner.ownerToken, { title: 'Inverters', target_keyword: keyword });

    const res = await researchItem(world, owner.ownerToken, id);
    assert.equal(res.status, 201, res.text);
    const kbClaims = res.body.claims.filter((c: { kind: string }) => c.kind === 'kb');
    const webClaims = res.body.claims.filter((c: { kind: string }) => c.kind === 'web');
    assert.ok(kbClaims.length > 0, 'claims from the knowledge base');
    for (const claim of kbClaims) {
      assert.equal(claim.source_url, null);
      assert.ok(kbText.includes(claim.quote), `kb quote verbatim: ${claim.quote}`);
    }
    assert.ok(webClaims.length > 0);
    for (const claim of webClaims) assert.ok(urls.includes(claim.source_url), claim.source_url);
    assert.equal(res.body.extraction, 'model');
    assert.ok(
      res.body.claims.every((c: { confidence_score: number; extraction: string }) => c.extraction === 'model' && c.confidence_score > 0),
    );
  });

  it('a claim whose quote is not found in its page is dropped and counted in warnings', async () => {
    const keyword = `attic insulation payback ${suffix()}`;
    // Short pages (fewer facts than the claims asked for), so the model's extra, fabricated claim is not cut off.
    const paths = [`/short/${suffix()}`, `/short/${suffix()}`];
    paths.forEach((path, i) =>
      world.pages.setPage(path, {
        html: `<article><h1>Attic report ${i}</h1><p>In 202${i}, ${keyword} averaged ${4 + i} years in our survey of 300 homes.</p></article>`,
      }),
    );
    world.search.setResults(
      keyword,
      paths.map((path, i) => ({ title: `Attic report ${i}`, url: world.pages.url(path) })),
    );
    const id = await createItem(world, owner.ownerToken, { title: 'Insulation', target_keyword: keyword });
    world.model!.fabricateQuotes(true);
    try {
      const res = await researchItem(world, owner.ownerToken, id);
      assert.equal(res.status, 201, res.text);
      assert.ok(res.body.claims.length > 0);
      assert.ok(
        res.body.claims.every((c: { quote: string }) => c.quote !== FABRICATED_QUOTE),
        'the fabricated quote never appears',
      );
      const dropped = res.body.warnings.filter((w: string) => /^dropped 1 claim from .*: the quote is not in the page text$/.test(w));
      assert.equal(dropped.length, 2, res.body.warnings.join('\n'));
    } finally {
      world.model!.fabricateQuotes(false);
    }
  });

  it('a knowledge-base claim whose quote is not in its passage is dropped and counted in warnings', async () => {
    const account = await newAccount('Dropped kb quotes');
    const keyword = `duct sealing leakage ${suffix()}`;
    const kb = await createKnowledgeBase(harness().db, account.accountId, { name: 'Audit notes' });
    const kbText = `In 2022 our ${keyword} audits cut losses by 18% in 40 homes.`;
    await indexDocument(harness().db, account.accountId, kb.id, { sourceUrl: null, title: 'Audits', text: kbText });
    world.search.setResults(keyword, []);
    const id = await createItem(world, account.ownerToken, { title: 'Ducts', target_keyword: keyword });
    world.model!.fabricateQuotes(true);
    try {
      const res = await researchItem(world, account.ownerToken, id);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(
        res.body.claims.map((c: { kind: string; quote: string }) => [c.kind, c.quote]),
        [['kb', kbText]],
      );
      assert.ok(
        res.body.warnings.includes('dropped 1 knowledge-base claim: the quote is not in its passage'),
        res.body.warnings.join('\n'),
      );
    } finally {
      world.model!.fabricateQuotes(false);
    }
  });

  it('a page over 60,000 characters of readable text is skipped and reported as a gap', async () => {
    const keyword = `battery storage sizing ${suffix()}`;
    const bigPath = `/big/${suffix()}`;
    world.pages.setPage(bigPath, { html: articleHtml({ title: 'Everything about batteries', topic: keyword, characters: 61_000 }) });
    const { urls } = publishArticles(world, keyword, 1, [{ path: bigPath, title: 'Huge page' }]);
    const id = await createItem(world, owner.ownerToken, { title: 'Batteries', target_keyword: keyword });

    const res = await researchItem(world, owner.ownerToken, id);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.gaps.length, 1, res.text);
    assert.match(
      res.body.gaps[0],
      new RegExp(`^${urls[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: skipped, \\d+ characters of readable text is over the 60000 limit$`),
    );
    assert.deepEqual(
      res.body.sources.map((s: { url: string }) => s.url),
      [urls[0]],
    );
    assert.ok(res.body.claims.every((c: { source_url: string | null }) => c.source_url !== urls[1]));
  });

  it('a used page that cannot be indexed is reported with indexed false and the run finishes', async () => {
    const keyword = `smart thermostat savings ${suffix()}`;
    const badPath = `/nul/${suffix()}`;
    // A NUL character: the page is readable, its claims are fine, but Postgres cannot store its text.
    world.pages.setPage(badPath, {
      text: `In 2024, ${keyword} reached 23% of homes in the survey.\n\nPrinted from the archive \u0000 page 2.`,
    });
    const { urls } = publishArticles(world, keyword, 1, [{ path: badPath, title: 'Archive copy' }]);
    const id = await createItem(world, owner.ownerToken, { title: 'Thermostats', target_keyword: keyword });

    const res = await researchItem(world, owner.ownerToken, id);
    assert.equal(res.status, 201, res.text);
    const bad = res.body.sources.find((s: { url: string }) => s.url === urls[1]);
    const good = res.body.sources.find((s: { url: string }) => s.url === urls[0]);
    assert.ok(bad.claims > 0, 'the page was used');
    assert.deepEqual([bad.indexed, bad.already_indexed], [false, false]);
    assert.equal(good.indexed, true);
    assert.ok(
      res.body.warnings.some((w: string) => w.startsWith(`${urls[1]}: not indexed into the research knowledge base`)),
      res.body.warnings.join('\n'),
    );
    assert.equal(await countRows('kb_documents', { kb_id: res.body.knowledge_base_id, source_url: urls[1] }), 0);
    assert.ok(res.body.artifact_id, 'the artifact was written');
  });

  it('a re-run refreshes the same artifact (artifact_created false) and never re-indexes a known URL (already_indexed true)', async () => {
    const keyword = `window glazing u-value ${suffix()}`;
    const { urls } = publishArticles(world, keyword, 2);
    const id = await createItem(world, owner.ownerToken, { title: 'Glazing', target_keyword: keyword });

    const first = await researchItem(world, owner.ownerToken, id, { key: `first-${suffix()}` });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.artifact_created, true);
    assert.ok(first.body.sources.every((s: { indexed: boolean; already_indexed: boolean }) => s.indexed && !s.already_indexed));
    const kbId = first.body.knowledge_base_id;
    const pagePassages = async () =>
      Number(
        (
          await harness()
            .db('kb_passages as p')
            .join('kb_documents as d', 'd.id', 'p.document_id')
            .where('d.kb_id', kbId)
            .whereIn('d.source_url', urls)
            .count({ n: '*' })
        )[0].n,
      );
    const passagesBefore = await pagePassages();
    assert.ok(passagesBefore > 0);

    const second = await researchItem(world, owner.ownerToken, id, { key: `second-${suffix()}` });
    assert.equal(second.status, 201, second.text);
    assert.notEqual(second.body.run_id, first.body.run_id);
    assert.equal(second.body.artifact_created, false);
    assert.equal(second.body.artifact_id, first.body.artifact_id);
    assert.deepEqual(
      second.body.sources.map((s: { url: string }) => s.url),
      urls,
    );
    assert.ok(
      second.body.sources.every((s: { indexed: boolean; already_indexed: boolean }) => s.indexed && s.already_indexed),
      second.text,
    );
    assert.equal(await countRows('kb_artifacts', { account_id: owner.accountId, content_id: id }), 1);
    for (const url of urls) assert.equal(await countRows('kb_documents', { kb_id: kbId, source_url: url }), 1);
    assert.equal(await pagePassages(), passagesBefore);
  });

  it('settings.research is stamped last within 8,000 characters (sources and gaps at most 10), sibling settings keys survive, no version is written', async () => {
    const keyword = `geothermal loop depth ${suffix()}`;
    publishArticles(world, keyword, 10);
    const id = await createItem(world, owner.ownerToken, {
      title: 'Geothermal',
      target_keyword: keyword,
      settings: { brief_owner: 'Dana', target_keyword: keyword },
    });
    const versionsBefore = await countRows('content_versions', { content_id: id });

    const res = await researchItem(world, owner.ownerToken, id, { body: { max_sources: 10 } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.sources.length, 10);

    const item = await world.app.call('GET', `/api/marketing/content/${id}`, { token: owner.ownerToken });
    const stamp = item.body.settings.research;
    assert.equal(item.body.settings.brief_owner, 'Dana');
    assert.equal(item.body.settings.target_keyword, keyword);
    assert.ok(JSON.stringify(stamp).length <= 8000, `stamp is ${JSON.stringify(stamp).length} characters`);
    assert.ok(stamp.sources.length <= 10 && stamp.gaps.length <= 10);
    assert.equal(stamp.artifact_id, res.body.artifact_id);
    assert.equal(stamp.run_id, res.body.run_id);
    assert.equal(stamp.claim_count, res.body.claims.length);
    assert.equal(await countRows('content_versions', { content_id: id }), versionsBefore);
  });

  it('GET research answers nulls before the first run, then settings.research and the artifact it points at', async () => {
    const keyword = `heat recovery ventilation ${suffix()}`;
    publishArticles(world, keyword, 1);
    const id = await createItem(world, owner.ownerToken, { title: 'Ventilation', target_keyword: keyword });
    const agentKey = await newAgentKey(owner.accountId, ['marketing.content:read']);

    const before = await world.app.call('GET', `/api/marketing/content/${id}/research`, { token: owner.ownerToken });
    assert.equal(before.status, 200, before.text);
    assert.deepEqual(before.body, { research: null, artifact: null });

    const run = await researchItem(world, owner.ownerToken, id);
    assert.equal(run.status, 201, run.text);
    for (const path of [`/api/marketing/content/${id}/research`, `/api/agent/marketing/content/${id}/research`]) {
      const after = await world.app.call('GET', path, { token: path.includes('agent') ? agentKey : owner.ownerToken });
      assert.equal(after.status, 200, after.text);
      assert.equal(after.body.research.artifact_id, run.body.artifact_id);
      assert.equal(after.body.artifact.id, run.body.artifact_id);
      assert.equal(after.body.artifact.artifact_type, 'content_research');
      assert.equal(after.body.artifact.content_id, id);
      assert.equal(after.body.artifact.content_json.content_id, id);
      assert.equal(after.body.artifact.content_json.claims.length, run.body.claims.length);
    }
  });

  it('topic research writes its artifact and stamps nothing; the same topic again refreshes it', async () => {
    const keyword = `rainwater harvesting ${suffix()}`;
    publishArticles(world, keyword, 2);
    const agentKey = await newAgentKey(owner.accountId, ['marketing.content:create']);
    const bystander = await createItem(world, owner.ownerToken, { title: 'Untouched', target_keyword: keyword });
    const bystanderBefore = await harness().db('content_items').where({ id: bystander }).first();

    const first = await researchTopic(world, agentKey, { topic: 'Rainwater harvesting', keyword, max_sources: 2 });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.content_id, null);
    assert.equal(first.body.topic, 'Rainwater harvesting');
    assert.equal(first.body.sources.length, 2);
    const artifact = await harness().db('kb_artifacts').where({ id: first.body.artifact_id }).first();
    assert.equal(artifact.content_id, null);
    assert.equal(artifact.content_json.content_id, null);
    const bystanderAfter = await harness().db('content_items').where({ id: bystander }).first();
    assert.deepEqual(bystanderAfter.settings, bystanderBefore.settings);
    assert.equal(bystanderAfter.updated_at.getTime(), bystanderBefore.updated_at.getTime());
    assert.ok(!(await activityEvents(first.body.run_id)).some((e) => e.type === 'stampContentResearch'), 'no stamp step');

    const again = await researchTopic(world, agentKey, { topic: '  rainwater   HARVESTING ', keyword });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.artifact_id, first.body.artifact_id);
    assert.equal(again.body.artifact_created, false);
  });
});
