import assert from 'node:assert/strict';
import { useModelSimulator } from '../../helpers/modelChat';
import { draftCaseStudy } from '../../../src/marketing/caseStudy/draft';
import { quoteInBody } from '../../../src/marketing/caseStudy/markup';
import { CASE_STUDY_REQUEST_START, modelDraft } from '../../../src/marketing/caseStudy/modelDraft';
import { unsourcedNumbers } from '../../../src/marketing/caseStudy/numbers';
import type { CaseStudySources } from '../../../workflows/caseStudy.contract';
import { seoCheck } from '../../../src/marketing/seo/check';
import { ProviderError } from '../../../src/clients/providers/errors';

const GRID_ID = '0d9e4c7a-3333-4b4b-9c9c-000000000003';
const TESTIMONIAL_ID = '0d9e4c7a-4444-4b4b-9c9c-000000000004';
const QUOTE = 'Our crews stopped chasing paperwork & started fixing roofs — 4 extra jobs a week.';

function sources(overrides: Partial<CaseStudySources> = {}): CaseStudySources {
  return {
    deal: { id: 'deal-9', title: 'Studio renewal 2026', amount: 1_999_900, currency: 'EUR', won_at: '2026-02-02T09:00:00Z' },
    contact: { name: 'Mia Krause', company: 'Studio 54 Roofing' },
    grid: {
      id: GRID_ID,
      name: 'Winter rollout',
      results: [
        { id: 'r1', metric: 'Quote turnaround', before: '72.0000', after: '6.0000', unit: 'hours' },
        { id: 'r2', metric: 'Callbacks', before: '9.5000', after: '2.2500', unit: '%' },
      ],
    },
    testimonial: { id: TESTIMONIAL_ID, quote: QUOTE, attribution: 'Mia Krause, owner', consent: true },
    avatar: { id: 'av-2', name: 'Growing Contractor' },
    stage: 'Decision',
    ...overrides,
  };
}

const proseWith = (challenge: string) =>
  JSON.stringify({
    title: 'A roofer gets time back',
    excerpt: 'Less paperwork.',
    challenge,
    solution: 'They switched.',
    outcome: 'It worked.',
  });

const citationCodes = (body: string) =>
  seoCheck({
    title: 'x',
    slug: null,
    body,
    meta_title: null,
    meta_description: null,
    target_keyword: null,
    featured_image_url: null,
    featured_image_alt: null,
    canonical_url: null,
  })
    .findings.map((f) => f.code)
    .filter((c) => c.startsWith('citation_'));

describe('case-study model writer', () => {
  const model = useModelSimulator();

  it('one JSON chat call writes the prose from names only: the model sees no grid value and no quote', async () => {
    const before = model.sim().requests.length;
    const draft = await draftCaseStudy(model.chat(), sources());
    assert.equal(model.sim().requests.length, before + 1, 'one call');
    const request = model.sim().requests.at(-1)!;
    assert.equal(request.response_format?.type, 'json_object');
    const user = request.messages.find((m) => m.role === 'user')!.content;
    assert.ok(user.includes(CASE_STUDY_REQUEST_START));
    for (const secret of ['72', '2.25', '9.5', 'paperwork', '1999900', 'Mia']) assert.ok(!user.includes(secret), secret);
    assert.equal(draft.writer, 'model');
    assert.deepEqual(draft.warnings, []);
    assert.ok(draft.body.includes('Studio 54 Roofing'), 'the name given, digits and all');
  });

  it('the model draft carries the exact results, the byte-identical quote and resolved markers', async () => {
    const draft = await modelDraft(model.chat(), sources());
    assert.ok(draft.body.includes(`<li>Quote turnaround: from 72 hours to 6 hours[^grid:${GRID_ID}]</li>`));
    assert.ok(draft.body.includes(`<li>Callbacks: from 9.5% to 2.25%[^grid:${GRID_ID}]</li>`));
    assert.equal(quoteInBody(draft.body), QUOTE);
    assert.deepEqual(unsourcedNumbers(draft, sources()), []);
    assert.deepEqual(citationCodes(draft.body), []);
    assert.deepEqual(draft.sources_used, { grid_id: GRID_ID, result_ids: ['r1', 'r2'], testimonial_id: TESTIMONIAL_ID });
  });

  it('an answer with a digit outside the given names is unusable: the template writes the draft, with a warning', async () => {
    model.sim().answerNext(proseWith('Since 2019 Studio 54 Roofing struggled.'));
    await assert.rejects(modelDraft(model.chat(), sources()), (err: ProviderError) => err.code === 'model_bad_response');
    model.sim().answerNext(proseWith('Since 2019 Studio 54 Roofing struggled.'));
    const draft = await draftCaseStudy(model.chat(), sources());
    assert.equal(draft.writer, 'template');
    assert.ok(
      draft.warnings.some((w) => w.includes('holds a number')),
      draft.warnings.join(),
    );
    assert.ok(!draft.body.includes('2019'));
    assert.deepEqual(unsourcedNumbers(draft, sources()), []);
    assert.equal(quoteInBody(draft.body), QUOTE);
  });

  it('digits inside a given name are not a number of the prose', async () => {
    model.sim().answerNext(proseWith('Studio 54 Roofing, a “Growing Contractor”, was buried in paperwork.'));
    const draft = await draftCaseStudy(model.chat(), sources());
    assert.equal(draft.writer, 'model');
  });

  it('an answer that is not JSON, has the wrong shape or writes a source marker falls back to the template', async () => {
    for (const answer of ['Sure! Here is your case study.', '{"title":"Only a title"}', proseWith('They struggled [citation needed].')]) {
      model.sim().answerNext(answer);
      const draft = await draftCaseStudy(model.chat(), sources());
      assert.equal(draft.writer, 'template', answer);
      assert.equal(draft.warnings.length, 1, answer);
      assert.deepEqual(citationCodes(draft.body), []);
    }
  });

  it('a failing model (503) or no model key still produces a draft, by the template', async () => {
    model.sim().failNext(1, 503);
    const failed = await draftCaseStudy(model.chat(), sources());
    assert.equal(failed.writer, 'template');
    assert.ok(failed.warnings[0].includes('the template wrote it'));
    const calls = model.sim().calls;
    const keyless = await draftCaseStudy(null, sources());
    assert.equal(keyless.writer, 'template');
    assert.deepEqual(keyless.warnings, []);
    assert.equal(model.sim().calls, calls, 'no call without a client');
  });

  it('a cancelled draft is rethrown, not written by the template', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the workflow'));
    await assert.rejects(draftCaseStudy(model.chat(), sources(), { signal: controller.signal }), /cancelled by the workflow/);
  });
});
