import assert from 'node:assert/strict';
import { seoCheck } from '../../../src/marketing/seo/check';
import { startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { CONSENTED_QUOTE, getPack, newItem, REVIEW, seedKnowledge, seedProof, withConfig, type SeededProof } from './fixtures';

interface Entry {
  text: string;
  consent: boolean;
  citation: string;
  citation_definition: string;
  kind: string;
  attribution: string | null;
  source: { type: string; id: string };
}

const noModel = { MODEL_API_KEY: undefined };
const bySource = (data: Entry[], id: string) => data.find((e) => e.source.id === id);
const NAME = /\b(jane|doe|tom|baker)\b/i;

describe('proof pack (GET /api/marketing/content/proof-pack)', () => {
  let acct: TestAccount;
  let seeded: SeededProof;
  let model: ModelSimulator;
  before(async () => {
    acct = await newAccount('Proof Co');
    seeded = await seedProof(acct.accountId);
    await seedKnowledge(acct.accountId, 'Call with Jane Doe: invoicing takes roofers a whole Friday; she wants exports that never fail.');
    model = await startModelSimulator();
  });
  after(() => model.stop());

  it('consent true is quoted verbatim with attribution: consented testimonial, review, result with the numbers as recorded', async () => {
    const res = await withConfig(noModel, () => getPack(acct.ownerToken));
    assert.equal(res.status, 200, res.text);
    const data: Entry[] = res.body.data;
    assert.deepEqual(bySource(data, seeded.consentedId), {
      text: CONSENTED_QUOTE,
      consent: true,
      citation: `[^testimonial:${seeded.consentedId}]`,
      citation_definition: `[^testimonial:${seeded.consentedId}]: Testimonial by Maria Lopez, Roof Co, before/after grid “Roof Co rollout”`,
      kind: 'testimonial',
      attribution: 'Maria Lopez, Roof Co',
      source: { type: 'before_after_testimonial', id: seeded.consentedId },
    });
    const review = bySource(data, seeded.reviewId)!;
    assert.equal(review.text, REVIEW);
    assert.equal(review.attribution, 'Jane Doe');
    assert.equal(review.citation, `[^review:${seeded.reviewId}]`);
    const result = bySource(data, seeded.resultId)!;
    assert.equal(result.text, 'Hours on invoicing per week: from 12.5 hours to 3 hours');
    assert.equal(result.consent, true);
  });

  it('consent false is paraphrased without the name by the fallback: ticket, unconsented testimonial, knowledge passage', async () => {
    const res = await withConfig(noModel, () => getPack(acct.ownerToken, 'q=invoicing exports'));
    assert.equal(res.status, 200, res.text);
    const internal = (res.body.data as Entry[]).filter((e) => !e.consent);
    assert.deepEqual(internal.map((e) => e.kind).sort(), ['knowledge', 'testimonial', 'ticket']);
    for (const entry of internal) {
      assert.doesNotMatch(entry.text, NAME, entry.text);
      assert.doesNotMatch(entry.citation_definition, NAME);
      assert.equal(entry.attribution, null);
    }
    const ticket = bySource(internal, seeded.ticketId)!;
    assert.doesNotMatch(ticket.text, /@|555/);
    assert.match(ticket.text, /could not export/);
    assert.equal(ticket.citation, `[^activity:${seeded.ticketId}]`);
    assert.ok(res.body.notes.some((n: string) => /name stripping/.test(n)));
  });

  it('consent false is paraphrased without the name by the model (one call for the batch)', async () => {
    const before = model.requests.length;
    const res = await withConfig({ MODEL_API_URL: model.url, MODEL_API_KEY: model.apiKey }, () =>
      getPack(acct.ownerToken, 'kinds=ticket,testimonial&q=invoicing'),
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(model.requests.length - before, 1);
    const ticket = bySource(res.body.data, seeded.ticketId)!;
    assert.match(ticket.text, /^The customer said that /);
    assert.doesNotMatch(ticket.text, NAME);
    assert.doesNotMatch(JSON.stringify(model.requests.at(-1)), /Jane|Tom Baker/, 'the model never sees the names');
    assert.ok(res.body.notes.some((n: string) => /by the model/.test(n)));
  });

  it('a model paraphrase that still names the person is replaced by the name-stripped text', async () => {
    model.answerNext(JSON.stringify({ paraphrases: [{ index: 0, text: 'Jane Doe from Roof Co lost an hour to a failed export.' }] }));
    const res = await withConfig({ MODEL_API_URL: model.url, MODEL_API_KEY: model.apiKey }, () => getPack(acct.ownerToken, 'kinds=ticket'));
    assert.equal(res.status, 200, res.text);
    const ticket = bySource(res.body.data, seeded.ticketId)!;
    assert.doesNotMatch(ticket.text, NAME);
    assert.match(ticket.text, /could not export/);
    assert.ok(res.body.notes.some((n: string) => /named someone/.test(n)));
  });

  it('a failing model still answers: the fallback writes every paraphrase', async () => {
    model.failNext(1, 500);
    const res = await withConfig({ MODEL_API_URL: model.url, MODEL_API_KEY: model.apiKey }, () => getPack(acct.ownerToken, 'kinds=ticket'));
    assert.equal(res.status, 200, res.text);
    assert.doesNotMatch(bySource(res.body.data, seeded.ticketId)!.text, NAME);
    assert.ok(res.body.notes.some((n: string) => /no usable paraphrase/.test(n)));
  });

  it('every entry is at most 600 characters; a long ticket is cut at a word, a long review is left out with a note', async () => {
    const other = await newAccount('Long Co');
    const { contactId } = await seedProof(other.accountId);
    const long = Array.from({ length: 150 }, (_, i) => `word${i}`).join(' ');
    await harness()
      .db('crm_contact_activities')
      .insert([
        { account_id: other.accountId, contact_id: contactId, kind: 'ticket', body: long },
        { account_id: other.accountId, contact_id: contactId, kind: 'Review', body: long },
      ]);
    const res = await withConfig(noModel, () => getPack(other.ownerToken, 'kinds=ticket,review'));
    assert.equal(res.status, 200, res.text);
    for (const entry of res.body.data as Entry[]) assert.ok([...entry.text].length <= 600, entry.text);
    assert.ok((res.body.data as Entry[]).some((e) => e.kind === 'ticket' && e.text.endsWith('…')));
    assert.ok(!(res.body.data as Entry[]).some((e) => e.kind === 'review' && e.text === long));
    assert.ok(res.body.notes.some((n: string) => /1 verbatim quote\(s\) over 600/.test(n)));
  });

  it('the citations are accepted by the pre-publish SEO check: no citation_unresolved finding', async () => {
    const res = await withConfig(noModel, () => getPack(acct.ownerToken, 'q=invoicing'));
    const data: Entry[] = res.body.data;
    assert.ok(data.length >= 5);
    const body = [
      ...data.map((e) => `<p>${e.text.replace(/&/g, '&amp;').replace(/</g, '&lt;')} ${e.citation}</p>`),
      ...data.map((e) => `<p>${e.citation_definition}</p>`),
    ].join('');
    const check = seoCheck({
      title: 'Proof',
      slug: 'proof',
      body,
      meta_title: null,
      meta_description: null,
      target_keyword: null,
      featured_image_url: null,
      featured_image_alt: null,
      canonical_url: null,
    });
    assert.deepEqual(
      check.findings.filter((f) => f.code.startsWith('citation')),
      [],
    );
    const withoutDefinitions = seoCheck({
      ...{ title: 'Proof', slug: 'proof', meta_title: null, meta_description: null },
      target_keyword: null,
      featured_image_url: null,
      featured_image_alt: null,
      canonical_url: null,
      body: `<p>x ${data[0].citation}</p>`,
    });
    assert.ok(
      withoutDefinitions.findings.some((f) => f.code === 'citation_unresolved'),
      'the check does read the marker',
    );
  });

  it('kinds narrows the entries and the sources read', async () => {
    const res = await withConfig(noModel, () => getPack(acct.ownerToken, 'kinds=result,review'));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([...new Set((res.body.data as Entry[]).map((e) => e.kind))].sort(), ['result', 'review']);
    assert.deepEqual(
      res.body.sources.map((s: { kind: string }) => s.kind),
      ['results', 'crm_activities'],
    );
  });

  it('limit caps the entries, taken one kind at a time', async () => {
    const res = await withConfig(noModel, () => getPack(acct.ownerToken, 'limit=3&q=invoicing'));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((e: Entry) => e.kind),
      ['testimonial', 'result', 'review'],
    );
  });

  it("content_id narrows to the item's grid and searches with its keyword; avatar_id and journey_stage narrow grids and tagged activities", async () => {
    const [avatar] = await harness().db('customer_avatars').insert({ account_id: acct.accountId, name: 'Owner-operator' }).returning('id');
    const otherGrid = await seedProof(acct.accountId, 'Second grid');
    const itemId = await newItem(acct.accountId, {
      before_after_grid_id: otherGrid.gridId,
      target_keyword: 'exports',
      avatar_id: avatar.id,
      journey_stage: 'Decision',
    });
    await harness()
      .db('crm_contact_activities')
      .insert({
        account_id: acct.accountId,
        contact_id: seeded.contactId,
        kind: 'objection',
        body: 'Too expensive for a two-person crew.',
        metadata: { journey_stage: 'Awareness' },
      });
    const res = await withConfig(noModel, () => getPack(acct.ownerToken, `content_id=${itemId}`));
    assert.equal(res.status, 200, res.text);
    const grids = (res.body.data as Entry[]).filter((e) => e.kind === 'testimonial' || e.kind === 'result');
    assert.ok(grids.length > 0);
    for (const e of grids) assert.ok([otherGrid.consentedId, otherGrid.unconsentedId, otherGrid.resultId].includes(e.source.id));
    assert.ok(!(res.body.data as Entry[]).some((e) => e.kind === 'objection'), 'an activity tagged for another stage is left out');
    assert.ok(
      (res.body.data as Entry[]).some((e) => e.kind === 'knowledge'),
      "the item's keyword searched the knowledge bases",
    );

    const byAvatar = await withConfig(noModel, () => getPack(acct.ownerToken, `avatar_id=${avatar.id}&kinds=result`));
    assert.deepEqual(
      byAvatar.body.data.map((e: Entry) => e.source.id),
      [otherGrid.resultId],
    );
    const byStage = await withConfig(noModel, () => getPack(acct.ownerToken, 'journey_stage=awareness&kinds=objection'));
    assert.equal(byStage.body.data.length, 1);
  });

  it("another account's proof never leaks, and its item or avatar behaves as a missing one", async () => {
    const stranger = await newAccount('Stranger Co');
    const theirs = await seedProof(stranger.accountId, 'Stranger grid');
    const theirItem = await newItem(stranger.accountId, { before_after_grid_id: theirs.gridId });
    const [theirAvatar] = await harness().db('customer_avatars').insert({ account_id: stranger.accountId, name: 'X' }).returning('id');
    const mine = await withConfig(noModel, () => getPack(acct.ownerToken, 'q=invoicing'));
    const theirIds = Object.values(theirs);
    assert.ok(!(mine.body.data as Entry[]).some((e) => theirIds.includes(e.source.id)));
    for (const id of [theirItem, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await getPack(acct.ownerToken, `content_id=${id}`);
      assert.equal(res.status, 404, id);
      assert.equal(res.body.code, 'content_not_found');
    }
    const avatar = await getPack(acct.ownerToken, `avatar_id=${theirAvatar.id}`);
    assert.equal(avatar.status, 400);
    assert.equal(avatar.body.code, 'invalid_reference');
  });

  it('every query field is validated: a bad value is 400 naming the field', async () => {
    for (const [query, path] of [
      ['limit=0', 'query.limit'],
      ['limit=101', 'query.limit'],
      ['limit=abc', 'query.limit'],
      ['kinds=testimonial,gossip', 'query.kinds.1'],
      ['avatar_id=nope', 'query.avatar_id'],
      [`journey_stage=${'x'.repeat(256)}`, 'query.journey_stage'],
      [`q=${'x'.repeat(501)}`, 'query.q'],
      ['kinds=a&kinds=b', 'query.kinds'],
      ['colour=red', 'query'],
    ]) {
      const res = await getPack(acct.ownerToken, query);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(
        res.body.errors.some((e: { path: string }) => e.path === path),
        `${query}: ${res.text}`,
      );
    }
  });

  it('the agent twin answers the same with marketing.content:read, and 403 without it', async () => {
    const reader = await newAgentKey(acct.accountId, ['marketing.content:read'], true);
    const [dashboard, agent] = await withConfig(noModel, () =>
      Promise.all([getPack(acct.ownerToken, 'kinds=testimonial,result'), getPack(reader, 'kinds=testimonial,result', true)]),
    );
    assert.equal(agent.status, 200, agent.text);
    assert.deepEqual(agent.body, dashboard.body);
    const other = await newAgentKey(acct.accountId, ['marketing.reports:read'], true);
    assert.equal((await getPack(other, '', true)).status, 403);
  });
});
