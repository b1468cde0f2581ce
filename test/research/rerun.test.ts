import assert from 'node:assert/strict';
import { createKnowledgeBase, indexDocument } from '../../src/knowledge/service';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { createItem, publishArticles, researchItem, startResearchWorld, suffix, type ResearchWorld } from './researchKit';

type Claim = { kind: string; quote: string; source_url: string | null };
const quotesOf = (claims: Claim[], kind?: string) =>
  claims
    .filter((c) => !kind || c.kind === kind)
    .map((c) => c.quote)
    .sort();

/** Field notes of several passages, each with facts (numbers) about the keyword. */
function fieldNotes(keyword: string): string {
  return Array.from({ length: 3 }, (_, i) =>
    [
      `Field notes ${i + 1} on ${keyword}.`,
      `In 20${15 + i} our crews checked ${keyword} in ${40 + i} homes and found ${10 + i}% lost to poor settings.`,
      `The median ${keyword} audit took ${2 + i} hours and saved ${300 + i * 50} dollars a year.`,
      `After ${3 + i} years, ${70 + i}% of the ${keyword} fixes still held.`,
    ].join(' '),
  ).join('\n\n');
}

describe('research re-runs keep what they could not retrieve again', function () {
  this.timeout(180_000);
  let world: ResearchWorld;
  before(async () => {
    world = await startResearchWorld({ config: { SEARCH_MONTHLY_CAP: 1 } });
  });
  after(async () => world?.stop());

  it('our own research artifacts never crowd knowledge-base passages out of a run: a capped re-run keeps every claim, and so do the artifact and settings.research', async () => {
    const account = await newAccount(`Rerun Co ${suffix()}`);
    const keyword = `boiler flue loss ${suffix()}`;
    publishArticles(world, keyword, 3);
    const kb = await createKnowledgeBase(harness().db, account.accountId, { name: 'Crew notes' });
    await indexDocument(harness().db, account.accountId, kb.id, { sourceUrl: null, title: 'Notes', text: fieldNotes(keyword) });
    const id = await createItem(world, account.ownerToken, { title: 'Boiler flues', target_keyword: keyword });

    const first = await researchItem(world, account.ownerToken, id);
    assert.equal(first.status, 201, first.text);
    assert.notEqual(first.body.serp, null);
    const firstKb = quotesOf(first.body.claims, 'kb');
    assert.ok(firstKb.length > 0, 'the first run has knowledge-base claims');

    // A series of items on the same keyword: each run writes a research artifact that quotes the same notes.
    for (let i = 0; i < 4; i++) {
      const sibling = await createItem(world, account.ownerToken, { title: `Boiler flues, part ${i + 2}`, target_keyword: keyword });
      assert.equal((await researchItem(world, account.ownerToken, sibling)).status, 201);
    }

    const second = await researchItem(world, account.ownerToken, id);
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.serp, null, 'the cap is reached: serp is null');
    assert.deepEqual(
      quotesOf(second.body.claims, 'kb').filter((q) => firstKb.includes(q)),
      firstKb,
      'every knowledge-base claim is found again',
    );
    for (const quote of quotesOf(first.body.claims)) {
      assert.ok(
        second.body.claims.some((c: Claim) => c.quote === quote),
        `the re-run still holds: ${quote}`,
      );
    }

    const stored = await world.app.call('GET', `/api/marketing/content/${id}/research`, { token: account.ownerToken });
    assert.equal(stored.status, 200, stored.text);
    assert.equal(stored.body.research.run_id, second.body.run_id);
    assert.equal(stored.body.research.claim_count, second.body.claims.length);
    assert.ok(stored.body.research.claim_count >= first.body.claims.length, 'settings.research is never poorer than before');
    assert.deepEqual(quotesOf(stored.body.artifact.content_json.claims), quotesOf(second.body.claims));
    for (const quote of firstKb)
      assert.ok(
        stored.body.research.claims.some((c: Claim) => c.quote === quote),
        `stamped: ${quote}`,
      );
  });

  it('a re-run whose web search did not run keeps the stored web claims and sources, and says so', async () => {
    const account = await newAccount(`Carry Co ${suffix()}`);
    const keyword = `radiator bleed interval ${suffix()}`;
    const { urls } = publishArticles(world, keyword, 2);
    const id = await createItem(world, account.ownerToken, { title: 'Radiators', target_keyword: keyword });

    const first = await researchItem(world, account.ownerToken, id);
    assert.equal(first.status, 201, first.text);
    const firstWeb = first.body.claims.filter((c: Claim) => c.kind === 'web');
    assert.ok(firstWeb.length > 0);

    const second = await researchItem(world, account.ownerToken, id);
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.serp, null);
    assert.deepEqual(
      second.body.claims.filter((c: Claim) => c.kind === 'web'),
      firstWeb,
    );
    assert.deepEqual(
      second.body.sources.map((s: { url: string }) => s.url),
      urls,
    );
    assert.ok(
      second.body.warnings.some((w: string) =>
        w.startsWith(`the web search did not run: ${firstWeb.length} web claims and ${urls.length} sources of the research of `),
      ),
      second.body.warnings.join('\n'),
    );
    const artifact = await harness().db('kb_artifacts').where({ id: second.body.artifact_id }).first();
    assert.deepEqual(
      artifact.content_json.sources.map((s: { url: string }) => s.url),
      urls,
    );
    assert.equal(artifact.content_json.serp, null);
  });
});
