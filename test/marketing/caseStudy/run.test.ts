import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { slugify } from '../../../src/marketing/categories/slug';
import { SEO } from '../../../src/marketing/seo/thresholds';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import {
  draft,
  GRID_NUMBERS,
  newDeal,
  newGrid,
  numbersOf,
  QUOTE,
  readDraft,
  startCaseStudyWorld,
  suffix,
  type CaseStudyWorld,
} from './caseStudyKit';

const countItems = async (accountId: string) =>
  Number((await harness().db('content_items').where({ account_id: accountId }).count({ n: '*' }))[0].n);

describe('case-study drafts (POST /api/marketing/content/case-study), template writer', function () {
  this.timeout(120_000);
  let world: CaseStudyWorld;
  let owner: TestAccount;

  before(async () => {
    world = await startCaseStudyWorld();
    owner = await newAccount('Case Co');
  });
  after(async () => world?.stop());

  it('a won deal gives a case_study draft at the Decision stage as the journey map spells it, grounded in the contact and company', async () => {
    const journey = await world.app.call('POST', '/api/marketing/journeys', {
      token: owner.ownerToken,
      body: { name: 'Buyer journey', stages: [{ name: 'Awareness' }, { name: 'DECISION point' }, { name: 'decision' }] },
    });
    assert.equal(journey.status, 201, journey.text);
    const deal = await newDeal(world.app, owner.ownerToken);
    const grid = await newGrid(world.app, owner.ownerToken);
    const res = await draft(world.app, owner.ownerToken, { deal_id: deal.id, grid_id: grid.id }, { key: `first-${suffix()}` });
    assert.equal(res.status, 201, res.text);
    const item = res.body;
    assert.equal(item.content_type, 'case_study');
    assert.equal(item.status, 'draft');
    assert.equal(item.journey_stage, 'decision');
    assert.equal(item.journey_id, journey.body.id);
    assert.equal(item.before_after_grid_id, grid.id);
    assert.match(item.body, /Northwind Heating/);
    assert.equal(item.settings.case_study.deal_id, deal.id);
    assert.equal(item.settings.case_study.writer, 'template');
    const stored = await world.app.call('GET', `/api/marketing/content/${item.id}`, { token: owner.ownerToken });
    assert.deepEqual(stored.body.body, item.body);
  });

  it('every number in the draft appears in the grid, and the quote is byte-identical to the testimonial row', async () => {
    const deal = await newDeal(world.app, owner.ownerToken);
    const grid = await newGrid(world.app, owner.ownerToken);
    const res = await draft(world.app, owner.ownerToken, { deal_id: deal.id, grid_id: grid.id });
    assert.equal(res.status, 201, res.text);
    const { text, quote } = readDraft(res.body.body);
    assert.equal(quote, QUOTE);
    const numbers = numbersOf(`${res.body.title}\n${res.body.excerpt ?? ''}\n${text}`);
    assert.ok(numbers.length >= 4, `the results are stated: ${numbers.join(', ')}`);
    for (const n of numbers) assert.ok(GRID_NUMBERS.has(n), `${n} is not a grid value (text: ${text})`);
  });

  it('the draft carries source markers naming the grid and the testimonial, which the pre-publish check resolves', async () => {
    const deal = await newDeal(world.app, owner.ownerToken);
    const grid = await newGrid(world.app, owner.ownerToken);
    const res = await draft(world.app, owner.ownerToken, { deal_id: deal.id, testimonial_id: grid.testimonialId });
    assert.equal(res.status, 201, res.text);
    assert.ok(res.body.body.includes(`[^grid:${grid.id}]`));
    assert.ok(res.body.body.includes(`[^testimonial:${grid.testimonialId}]`));
    const check = await world.app.call('GET', `/api/marketing/content/${res.body.id}/seo-check`, { token: owner.ownerToken });
    assert.equal(check.status, 200, check.text);
    const codes = check.body.findings.map((f: { code: string }) => f.code);
    assert.ok(!codes.includes('citation_unresolved'), codes.join(', '));
    assert.ok(!codes.includes('citation_placeholder'), codes.join(', '));
  });

  it('a testimonial without consent is not quoted verbatim', async () => {
    const deal = await newDeal(world.app, owner.ownerToken);
    const grid = await newGrid(world.app, owner.ownerToken);
    const res = await draft(world.app, owner.ownerToken, { deal_id: deal.id, testimonial_id: grid.unconsentedId });
    assert.equal(res.status, 201, res.text);
    assert.ok(!res.body.body.includes('saved us a fortune'));
    assert.ok(!res.body.body.includes('Hans Meyer'));
    assert.equal(readDraft(res.body.body).quote, null);
    assert.equal(res.body.settings.case_study.testimonial_id, null);
  });

  it('records the sources in a case_study knowledge artifact of the deal, refreshed (not duplicated) by a re-run', async () => {
    const deal = await newDeal(world.app, owner.ownerToken);
    const grid = await newGrid(world.app, owner.ownerToken);
    const first = await draft(world.app, owner.ownerToken, { deal_id: deal.id, grid_id: grid.id });
    const second = await draft(world.app, owner.ownerToken, { deal_id: deal.id, grid_id: grid.id });
    assert.equal(second.status, 201, second.text);
    assert.notEqual(first.body.id, second.body.id, 'a request without a key is a new draft');
    const artifacts = await harness()
      .db('kb_artifacts')
      .where({ account_id: owner.accountId, artifact_type: 'case_study', artifact_key: `deal:${deal.id}` });
    assert.equal(artifacts.length, 1);
    assert.equal(artifacts[0].content_id, second.body.id);
    assert.equal(artifacts[0].content_json.grid.id, grid.id);
    assert.equal(artifacts[0].content_json.testimonial.id, grid.testimonialId);
  });

  it('idempotency: the same key returns the same draft; another body under the key is 409', async () => {
    const deal = await newDeal(world.app, owner.ownerToken);
    const key = `same-${suffix()}`;
    const first = await draft(world.app, owner.ownerToken, { deal_id: deal.id }, { key });
    assert.equal(first.status, 201, first.text);
    const before = await countItems(owner.accountId);
    const again = await draft(world.app, owner.ownerToken, { deal_id: deal.id }, { key });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.id, first.body.id);
    assert.equal(await countItems(owner.accountId), before);
    const other = await draft(
      world.app,
      owner.ownerToken,
      { deal_id: deal.id, avatar_id: null, grid_id: (await newGrid(world.app, owner.ownerToken)).id },
      { key },
    );
    assert.equal(other.status, 409, other.text);
    assert.equal(other.body.code, 'idempotency_key_reused');
  });

  it('a fresh case-study draft has a slug and its SEO check has no slug_missing', async () => {
    const fresh = await newAccount('Slug Co');
    const deal = await newDeal(world.app, fresh.ownerToken);
    const grid = await newGrid(world.app, fresh.ownerToken);
    const first = await draft(world.app, fresh.ownerToken, { deal_id: deal.id, grid_id: grid.id });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.slug, slugify(first.body.title, SEO.slugMax));
    const check = await world.app.call('GET', `/api/marketing/content/${first.body.id}/seo-check`, { token: fresh.ownerToken });
    assert.equal(check.status, 200, check.text);
    const codes = check.body.findings.map((f: { code: string }) => f.code);
    assert.ok(!codes.includes('slug_missing'), codes.join(', '));
    assert.ok(!codes.includes('slug_format'), codes.join(', '));
    assert.ok(!codes.includes('slug_too_long'), codes.join(', '));

    // Unique in the account: a second draft of the same title, and one whose next slug another item already has.
    const second = await draft(world.app, fresh.ownerToken, { deal_id: deal.id, grid_id: grid.id });
    assert.equal(second.body.title, first.body.title);
    assert.match(second.body.slug, /^[a-z0-9-]+-2$/);
    assert.ok(first.body.slug.startsWith(second.body.slug.slice(0, -2)), second.body.slug);
    const post = await world.app.call('POST', '/api/marketing/content', {
      token: fresh.ownerToken,
      body: { title: 'Another post', slug: second.body.slug.replace(/-2$/, '-3') },
    });
    assert.equal(post.status, 201, post.text);
    const third = await draft(world.app, fresh.ownerToken, { deal_id: deal.id, grid_id: grid.id });
    assert.equal(third.body.slug, second.body.slug.replace(/-2$/, '-4'));
  });

  it('a deal that is not won is 409 deal_not_won and nothing is written', async () => {
    for (const kind of ['open', 'lost'] as const) {
      const deal = await newDeal(world.app, owner.ownerToken, kind);
      const before = await countItems(owner.accountId);
      const res = await draft(world.app, owner.ownerToken, { deal_id: deal.id });
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.code, 'deal_not_won');
      assert.equal(res.body.deal_status, kind);
      assert.equal(await countItems(owner.accountId), before);
    }
  });

  it("another account's deal, grid, testimonial, avatar or project is 400 invalid_reference naming the field; nothing is written", async () => {
    const other = await newAccount('Other case co');
    const theirDeal = await newDeal(world.app, other.ownerToken);
    const theirGrid = await newGrid(world.app, other.ownerToken);
    const deal = await newDeal(world.app, owner.ownerToken);
    const ownGrid = await newGrid(world.app, owner.ownerToken);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ deal_id: theirDeal.id }, 'deal_id'],
      [{ deal_id: deal.id, grid_id: theirGrid.id }, 'grid_id'],
      [{ deal_id: deal.id, testimonial_id: theirGrid.testimonialId }, 'testimonial_id'],
      [
        { deal_id: deal.id, grid_id: ownGrid.id, testimonial_id: (await newGrid(world.app, owner.ownerToken)).testimonialId },
        'testimonial_id',
      ],
      [{ deal_id: deal.id, avatar_id: '00000000-0000-4000-8000-000000000000' }, 'avatar_id'],
      [{ deal_id: deal.id, project_id: '00000000-0000-4000-8000-000000000000' }, 'project_id'],
    ];
    const before = await countItems(owner.accountId);
    for (const [body, field] of cases) {
      const res = await draft(world.app, owner.ownerToken, body);
      assert.equal(res.status, 400, `${field}: ${res.text}`);
      assert.equal(res.body.code, 'invalid_reference');
      assert.equal(res.body.field, field);
    }
    assert.equal(await countItems(owner.accountId), before);
  });

  it('bad input is a coded 400 and nothing runs', async () => {
    for (const body of [{}, { deal_id: 'nope' }, { deal_id: '00000000-0000-4000-8000-000000000000', extra: 1 }]) {
      const res = await draft(world.app, owner.ownerToken, body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });

  it('202 past the wait bound: the job, whose result is the item', async () => {
    const app = await world.appWith({ CASE_STUDY_WAIT_SECONDS: 0 });
    const deal = await newDeal(app, owner.ownerToken);
    const res = await draft(app, owner.ownerToken, { deal_id: deal.id }, { key: `slow-${suffix()}` });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.kind, 'case-study');
    const done = await eventually(
      async () => (await app.call('GET', res.headers.get('location')!, { token: owner.ownerToken })).body,
      (job) => job.status !== 'running',
      60_000,
      'the draft job',
    );
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.result.content_type, 'case_study');
  });

  it('the agent twin needs marketing.content:create', async () => {
    const deal = await newDeal(world.app, owner.ownerToken);
    const reader = await newAgentKey(owner.accountId, ['marketing.content:read']);
    assert.equal((await draft(world.app, reader, { deal_id: deal.id }, { agent: true })).status, 403);
    const writer = await newAgentKey(owner.accountId, ['marketing.content:create']);
    const res = await draft(world.app, writer, { deal_id: deal.id }, { agent: true });
    assert.equal(res.status, 201, res.text);
  });
});

describe('case-study drafts with the chat model', function () {
  this.timeout(120_000);
  let world: CaseStudyWorld;
  let owner: TestAccount;

  before(async () => {
    world = await startCaseStudyWorld({ model: true });
    owner = await newAccount('Model case co');
  });
  after(async () => world?.stop());

  it('prose comes from the model; numbers and the quote still come from the grid and the testimonial row', async () => {
    const deal = await newDeal(world.app, owner.ownerToken);
    const grid = await newGrid(world.app, owner.ownerToken);
    const res = await draft(world.app, owner.ownerToken, { deal_id: deal.id, grid_id: grid.id });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.settings.case_study.writer, 'model');
    const { text, quote } = readDraft(res.body.body);
    assert.equal(quote, QUOTE);
    for (const n of numbersOf(`${res.body.title}\n${res.body.excerpt ?? ''}\n${text}`)) assert.ok(GRID_NUMBERS.has(n), `${n} in ${text}`);
  });

  it('a model that keeps failing gives way to the template, with a warning; the job still completes', async () => {
    world.model!.failNext(10, 503);
    const deal = await newDeal(world.app, owner.ownerToken);
    const res = await draft(world.app, owner.ownerToken, { deal_id: deal.id });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.settings.case_study.writer, 'template');
    assert.ok(
      res.body.settings.case_study.warnings.some((w: string) => /template/.test(w)),
      JSON.stringify(res.body.settings.case_study),
    );
  });
});
