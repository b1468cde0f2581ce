import assert from 'node:assert/strict';
import { isGenericHeading, planHeuristic, type PlanItem } from '../../../src/marketing/images/heuristic';
import { altText, imagePrompt, NO_TEXT } from '../../../src/marketing/images/prompt';
import { bodySections } from '../../../src/marketing/images/sections';

const words = (n: number, lead = 'Roof tiles crack in frost. Gutters overflow in storms.') =>
  `${lead} ${Array.from({ length: Math.max(0, n - 9) }, (_, i) => `word${i}`).join(' ')}`;

const ITEM: PlanItem = {
  title: 'Fixing a leaking roof',
  excerpt: 'How to find and fix roof leaks before winter.',
  target_keyword: 'roof leak repair',
  featured_image_url: null,
};
const PROFILE = { prompt_block: 'Soft daylight photography. Teal accents (#008080).', avoid_list: ['people’s faces', 'logos'] };
const OPTIONS = { replaceFeatured: false, maxSections: 8 };

const section = (heading: string, body: string) => `<h2>${heading}</h2><p>${body}</p>`;

describe('heuristic image plan (planHeuristic)', () => {
  it('plans the hero first when the item has no featured image, then each informative section in body order', () => {
    const html = section('Finding the leak', words(45)) + section('Replacing tiles', words(60));
    const plan = planHeuristic(ITEM, bodySections(html), PROFILE, OPTIONS);
    assert.deepEqual(
      plan.images.map((i) => [i.slot, i.heading, i.headingIndex, i.size]),
      [
        ['hero', null, null, '1536x1024'],
        ['section:0', 'Finding the leak', 0, '1536x1024'],
        ['section:1', 'Replacing tiles', 1, '1536x1024'],
      ],
    );
    assert.deepEqual(plan.skipped, []);
  });

  it('no hero when the item has a featured image, unless the run replaces it', () => {
    const html = section('Finding the leak', words(45));
    const featured = { ...ITEM, featured_image_url: 'https://cdn.example.test/f.png' };
    assert.deepEqual(
      planHeuristic(featured, bodySections(html), PROFILE, OPTIONS).images.map((i) => i.slot),
      ['section:0'],
    );
    assert.deepEqual(
      planHeuristic(featured, bodySections(html), PROFILE, { ...OPTIONS, replaceFeatured: true }).images.map((i) => i.slot),
      ['hero', 'section:0'],
    );
  });

  it('a heading that already has an image is left alone (skipped has_image)', () => {
    const html = `<h2>Finding the leak</h2><p>${words(50)}</p><img src="x.png">` + section('Replacing tiles', words(50));
    const plan = planHeuristic(ITEM, bodySections(html), PROFILE, OPTIONS);
    assert.deepEqual(plan.skipped, [{ index: 0, heading: 'Finding the leak', reason: 'has_image' }]);
    assert.deepEqual(
      plan.images.map((i) => i.slot),
      ['hero', 'section:1'],
    );
  });

  it('a section under 40 words, or under a generic heading, adds no information', () => {
    const html =
      section('Introduction', words(80)) +
      section('Short one', words(39)) +
      section('Long enough', words(40)) +
      section('FAQ: roofs', words(80));
    const plan = planHeuristic(ITEM, bodySections(html), PROFILE, OPTIONS);
    assert.deepEqual(plan.skipped, [
      { index: 0, heading: 'Introduction', reason: 'adds_no_information' },
      { index: 1, heading: 'Short one', reason: 'adds_no_information' },
      { index: 3, heading: 'FAQ: roofs', reason: 'adds_no_information' },
    ]);
    assert.deepEqual(
      plan.images.map((i) => i.slot),
      ['hero', 'section:2'],
    );
  });

  it('generic headings: introduction, conclusion, summary, faq, final thoughts, key takeaways, references, sources, related …', () => {
    for (const h of [
      'Introduction',
      '5. Conclusion',
      'In summary',
      'FAQ',
      'Frequently Asked Questions',
      'Final thoughts',
      'Key Takeaways:',
      'References',
      'Sources',
      'Related posts',
      'Conclusion: what to do next',
    ])
      assert.ok(isGenericHeading(h), h);
    for (const h of ['Sources of heat loss', 'Related costs you should budget for', 'Summary statistics of roof failures'])
      assert.ok(!isGenericHeading(h), h);
  });

  it('over the section limit the rest are skipped over_limit, in body order', () => {
    const html = [0, 1, 2, 3].map((i) => section(`Step ${i} of the repair`, words(45))).join('');
    const plan = planHeuristic(ITEM, bodySections(html), PROFILE, { replaceFeatured: false, maxSections: 2 });
    assert.deepEqual(
      plan.images.map((i) => i.slot),
      ['hero', 'section:0', 'section:1'],
    );
    assert.deepEqual(
      plan.skipped.map((s) => [s.index, s.reason]),
      [
        [2, 'over_limit'],
        [3, 'over_limit'],
      ],
    );
  });

  it('prompts: the subject (title, excerpt, keyword for the hero; heading and first two sentences for a section), the brand block, Avoid: …, and no lettering', () => {
    const html = section('Finding the leak', words(45, 'Look for stains. Check the flashing. Then test with a hose.'));
    const [hero, s0] = planHeuristic(ITEM, bodySections(html), PROFILE, OPTIONS).images;
    assert.match(hero.prompt, /Fixing a leaking roof/);
    assert.match(hero.prompt, /How to find and fix roof leaks before winter\./);
    assert.match(hero.prompt, /roof leak repair/);
    assert.match(s0.prompt, /"Finding the leak"/);
    assert.match(s0.prompt, /Look for stains\. Check the flashing\./);
    assert.doesNotMatch(s0.prompt, /test with a hose/, 'only the first two sentences');
    for (const p of [hero.prompt, s0.prompt]) {
      assert.ok(p.includes(PROFILE.prompt_block), 'the brand block');
      assert.ok(p.includes('Avoid: people’s faces; logos.'), 'the avoid list');
      assert.ok(p.endsWith(NO_TEXT));
    }
  });

  it('no Avoid line when the avoid list is empty, and no brand text when the block is empty', () => {
    assert.equal(imagePrompt('A red roof.', { prompt_block: '', avoid_list: [] }), `A red roof.\n\n${NO_TEXT}`);
  });

  it('alt text is the title for the hero and the heading for a section, plain and at most 125 characters', () => {
    const long = 'A very long heading '.repeat(10);
    const html = section(long, words(45)) + section('<em>Tiles</em> &amp; slates', words(45));
    const [hero, s0, s1] = planHeuristic(ITEM, bodySections(html), PROFILE, OPTIONS).images;
    assert.equal(hero.alt, 'Fixing a leaking roof');
    assert.ok(s0.alt.length <= 125 && s0.alt.startsWith('A very long heading'));
    assert.equal(s1.alt, 'Tiles & slates');
    assert.equal(altText('a <b>bold</b>\n move'), 'a bold move');
  });

  it('a body without H2s plans the hero only', () => {
    const plan = planHeuristic(ITEM, bodySections('<p>Just text.</p>'), PROFILE, OPTIONS);
    assert.deepEqual(
      plan.images.map((i) => i.slot),
      ['hero'],
    );
    assert.deepEqual(plan.skipped, []);
  });
});
