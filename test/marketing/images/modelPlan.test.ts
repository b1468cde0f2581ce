import assert from 'node:assert/strict';
import { useModelSimulator } from '../../helpers/modelChat';
import type { PlanItem } from '../../../src/marketing/images/heuristic';
import { PLAN_REQUEST_START, planWithModel } from '../../../src/marketing/images/modelPlan';
import { NO_TEXT } from '../../../src/marketing/images/prompt';
import { bodySections } from '../../../src/marketing/images/sections';
import { ProviderError } from '../../../src/clients/providers/errors';

const words = (n: number) =>
  `Roof tiles crack in frost. Gutters overflow in storms. ${Array.from({ length: n - 9 }, (_, i) => `w${i}`).join(' ')}`;
const ITEM: PlanItem = { title: 'Fixing a leaking roof', excerpt: null, target_keyword: null, featured_image_url: null };
const PROFILE = { prompt_block: 'Soft daylight photography.', avoid_list: ['logos'] };
const OPTIONS = { replaceFeatured: false, maxSections: 8 };
const BODY =
  '<h2>Introduction</h2><p>Short.</p><h2>Finding the leak</h2><p>' +
  words(50) +
  '</p><h2>Already shown</h2><p>' +
  words(50) +
  '</p><img src="x.png"><h2>Replacing tiles</h2><p>' +
  words(45) +
  '</p>';

describe('model image plan (planWithModel)', () => {
  const model = useModelSimulator();

  it('one JSON chat call plans the hero and the sections the model picks; headings it leaves out are skipped adds_no_information', async () => {
    const before = model.sim().requests.length;
    const plan = await planWithModel(model.chat(), ITEM, bodySections(BODY), PROFILE, OPTIONS);
    assert.equal(model.sim().requests.length, before + 1, 'one call');
    const request = model.sim().requests.at(-1)!;
    assert.equal(request.response_format?.type, 'json_object');
    assert.ok(request.messages.some((m) => m.content.includes(PLAN_REQUEST_START)));
    assert.deepEqual(
      plan.images.map((i) => [i.slot, i.heading, i.headingIndex]),
      [
        ['hero', null, null],
        ['section:1', 'Finding the leak', 1],
        ['section:3', 'Replacing tiles', 3],
      ],
    );
    assert.deepEqual(plan.skipped, [
      { index: 0, heading: 'Introduction', reason: 'adds_no_information' },
      { index: 2, heading: 'Already shown', reason: 'has_image' },
    ]);
  });

  it("the model's prompts get the brand block, the avoid list and no lettering appended; alt text is kept plain", async () => {
    model.sim().answerNext(
      JSON.stringify({
        hero: { prompt: 'A roofer on a ladder.', alt: 'Roofer at work' },
        sections: [{ index: 1, prompt: 'A stain on a ceiling.', alt: 'x'.repeat(300) }],
      }),
    );
    const plan = await planWithModel(model.chat(), ITEM, bodySections(BODY), PROFILE, OPTIONS);
    assert.equal(plan.images[0].prompt, `A roofer on a ladder.\n\nSoft daylight photography.\n\nAvoid: logos.\n\n${NO_TEXT}`);
    assert.equal(plan.images[0].alt, 'Roofer at work');
    assert.ok(plan.images[1].prompt.startsWith('A stain on a ceiling.'));
    assert.ok(plan.images[1].alt.length <= 125);
  });

  it('no hero is asked for or accepted when the item has a featured image and the run keeps it', async () => {
    const featured = { ...ITEM, featured_image_url: 'https://cdn.example.test/f.png' };
    const plan = await planWithModel(model.chat(), featured, bodySections(BODY), PROFILE, OPTIONS);
    assert.deepEqual(
      plan.images.map((i) => i.slot),
      ['section:1', 'section:3'],
    );
    model.sim().answerNext(JSON.stringify({ hero: { prompt: 'p', alt: 'a' }, sections: [] }));
    await assert.rejects(planWithModel(model.chat(), featured, bodySections(BODY), PROFILE, OPTIONS), badAnswer);
  });

  it('a wanted hero the model left out gets the heuristic hero prompt', async () => {
    model.sim().answerNext(JSON.stringify({ hero: null, sections: [] }));
    const plan = await planWithModel(model.chat(), ITEM, bodySections(BODY), PROFILE, OPTIONS);
    assert.equal(plan.images.length, 1);
    assert.match(plan.images[0].prompt, /Fixing a leaking roof/);
  });

  it('the model respects maxSections: the simulator picks at most that many', async () => {
    const plan = await planWithModel(model.chat(), ITEM, bodySections(BODY), PROFILE, { ...OPTIONS, maxSections: 1 });
    assert.deepEqual(
      plan.images.map((i) => i.slot),
      ['hero', 'section:1'],
    );
  });

  const badAnswer = (err: unknown) => err instanceof ProviderError && err.code === 'model_bad_response';
  const unusable: Array<[string, string]> = [
    ['not JSON', 'I would put a picture under every heading.'],
    ['without a sections array', '{"hero":null}'],
    ['a section index the body does not have', '{"hero":null,"sections":[{"index":9,"prompt":"p","alt":"a"}]}'],
    ['a section that already has an image', '{"hero":null,"sections":[{"index":2,"prompt":"p","alt":"a"}]}'],
    ['the same section twice', '{"hero":null,"sections":[{"index":1,"prompt":"p","alt":"a"},{"index":1,"prompt":"q","alt":"b"}]}'],
    ['an empty prompt', '{"hero":null,"sections":[{"index":1,"prompt":" ","alt":"a"}]}'],
  ];
  for (const [what, answer] of unusable) {
    it(`an unusable answer throws model_bad_response (the caller falls back to the heuristic): ${what}`, async () => {
      model.sim().answerNext(answer);
      await assert.rejects(planWithModel(model.chat(), ITEM, bodySections(BODY), PROFILE, OPTIONS), badAnswer);
    });
  }

  it('an unusable answer throws model_bad_response: more sections than maxSections', async () => {
    model.sim().answerNext('{"hero":null,"sections":[{"index":1,"prompt":"p","alt":"a"},{"index":3,"prompt":"q","alt":"b"}]}');
    await assert.rejects(planWithModel(model.chat(), ITEM, bodySections(BODY), PROFILE, { ...OPTIONS, maxSections: 1 }), badAnswer);
  });

  it('an answer in a Markdown fence is read', async () => {
    model.sim().answerNext('```json\n{"hero":null,"sections":[{"index":3,"prompt":"Tiles.","alt":"Tiles"}]}\n```');
    const plan = await planWithModel(model.chat(), ITEM, bodySections(BODY), PROFILE, OPTIONS);
    assert.deepEqual(
      plan.images.map((i) => i.slot),
      ['hero', 'section:3'],
    );
  });
});
