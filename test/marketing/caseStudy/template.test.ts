import assert from 'node:assert/strict';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { quoteInBody } from '../../../src/marketing/caseStudy/markup';
import { numbersIn, unsourcedNumbers } from '../../../src/marketing/caseStudy/numbers';
import type { CaseStudyDraft, CaseStudySources } from '../../../workflows/caseStudy.contract';
import { templateDraft } from '../../../src/marketing/caseStudy/template';
import { readBody } from '../../../src/marketing/seo/html';
import { seoCheck } from '../../../src/marketing/seo/check';

const GRID_ID = '7f3c2a10-1111-4a4a-8b8b-000000000001';
const TESTIMONIAL_ID = '7f3c2a10-2222-4a4a-8b8b-000000000002';
/** Everything HTML would mangle if it were pasted in raw: markup characters, a CRLF, doubled spaces, quotes, numbers. */
const QUOTE = `  We went from 9 missed calls a day to <none> — "honestly" it's R&D & ops' best year.\r\nFour stars? No: 5/5.  `;

function sources(overrides: Partial<CaseStudySources> = {}): CaseStudySources {
  return {
    deal: { id: 'deal-1', title: 'Acme 2026 renewal', amount: 4_250_000, currency: 'USD', won_at: '2026-03-14T10:00:00Z' },
    contact: { name: 'Dana Whitfield', company: 'Acme Roofing' },
    grid: {
      id: GRID_ID,
      name: 'Spring pilot',
      results: [
        { id: 'r1', metric: 'Lead response time', before: '48.0000', after: '2.5000', unit: 'hours' },
        { id: 'r2', metric: 'Quote win rate', before: '18.2500', after: '31.0000', unit: '%' },
        { id: 'r3', metric: 'Jobs booked per week', before: '1200.0000', after: '1350.5000', unit: null },
      ],
    },
    testimonial: { id: TESTIMONIAL_ID, quote: QUOTE, attribution: 'Dana Whitfield, Operations lead', consent: true },
    avatar: { id: 'av-1', name: 'Overbooked Owner' },
    stage: 'Decision',
    ...overrides,
  };
}

type Element = DefaultTreeAdapterMap['element'];
type Node = DefaultTreeAdapterMap['childNode'];

/** The text a conforming HTML parser reads inside the first `<blockquote><p>` of the body. */
function parsedQuote(body: string): string | null {
  const find = (nodes: Node[]): Element | null => {
    for (const node of nodes) {
      if (!('tagName' in node)) continue;
      if (node.tagName === 'blockquote') return node;
      const inner = find(node.childNodes);
      if (inner) return inner;
    }
    return null;
  };
  const quote = find(parseFragment(body).childNodes);
  const p = quote?.childNodes.find((n): n is Element => 'tagName' in n && n.tagName === 'p');
  return p ? p.childNodes.map((n) => ('value' in n ? n.value : '')).join('') : null;
}

function seoFindings(draft: CaseStudyDraft) {
  const subject = {
    title: draft.title,
    slug: null,
    body: draft.body,
    meta_title: null,
    meta_description: draft.excerpt,
    target_keyword: null,
    featured_image_url: null,
    featured_image_alt: null,
    canonical_url: null,
  };
  return seoCheck(subject).findings.map((f) => f.code);
}

describe('case-study template writer', () => {
  it('lists every grid result with its stored values (trailing zeros dropped) and the grid marker', () => {
    const draft = templateDraft(sources());
    assert.equal(draft.writer, 'template');
    const marker = `[^grid:${GRID_ID}]`;
    assert.ok(draft.body.includes(`<li>Lead response time: from 48 hours to 2.5 hours${marker}</li>`), draft.body);
    assert.ok(draft.body.includes(`<li>Quote win rate: from 18.25% to 31%${marker}</li>`));
    assert.ok(draft.body.includes(`<li>Jobs booked per week: from 1200 to 1350.5${marker}</li>`));
    assert.deepEqual(draft.sources_used, { grid_id: GRID_ID, result_ids: ['r1', 'r2', 'r3'], testimonial_id: TESTIMONIAL_ID });
  });

  it('every number in the draft is a grid value: no deal amount, no year, no count', () => {
    const draft = templateDraft(sources());
    assert.deepEqual(unsourcedNumbers(draft, sources()), []);
    const outsideQuote = readBody(draft.body.replace(/<blockquote[\s\S]*?<\/blockquote>/, '')).text;
    const grid = new Set(['48', '2.5', '18.25', '31', '1200', '1350.5']);
    for (const n of numbersIn(`${draft.title}\n${draft.excerpt}\n${outsideQuote}`)) assert.ok(grid.has(n), `${n} is not a grid value`);
    for (const absent of ['4250000', '4,250,000', '42500', '2026', '14', 'three']) assert.ok(!draft.body.includes(absent), absent);
  });

  it('copies the consented quote byte for byte: the stored body and an HTML parser both give back the row', () => {
    const draft = templateDraft(sources());
    assert.equal(quoteInBody(draft.body), QUOTE);
    assert.equal(parsedQuote(draft.body), QUOTE);
    assert.ok(draft.body.includes('&lt;none&gt;') && draft.body.includes('R&amp;D'), 'escaped only as HTML requires');
    assert.ok(draft.body.includes(`"honestly" it's`), 'quotes and apostrophes are left as they are');
    assert.ok(draft.body.includes(`<footer>— Dana Whitfield, Operations lead[^testimonial:${TESTIMONIAL_ID}]</footer>`));
  });

  it('defines every marker so the pre-publish check finds no unresolved citation and no placeholder', () => {
    const draft = templateDraft(sources());
    assert.ok(draft.body.includes(`<p>[^grid:${GRID_ID}]: Before/after grid “Spring pilot”`));
    assert.ok(draft.body.includes(`<p>[^testimonial:${TESTIMONIAL_ID}]: Testimonial by Dana Whitfield, Operations lead`));
    const codes = seoFindings(draft);
    assert.ok(!codes.includes('citation_unresolved'), codes.join());
    assert.ok(!codes.includes('citation_placeholder'), codes.join());
  });

  it('does not quote, cite or name the person of a testimonial without consent, and says so', () => {
    const s = sources({
      testimonial: { id: TESTIMONIAL_ID, quote: 'Best crew we ever hired.', attribution: 'Dana Whitfield', consent: false },
    });
    const draft = templateDraft(s);
    assert.equal(quoteInBody(draft.body), null);
    assert.ok(!draft.body.includes('Best crew'));
    assert.ok(!draft.body.includes('testimonial:'));
    assert.ok(!draft.body.includes('Dana'), 'the contact is not named without a consented quote');
    assert.equal(draft.sources_used.testimonial_id, null);
    assert.ok(draft.warnings.some((w) => w.includes('no consent')));
    assert.ok(!seoFindings(draft).includes('citation_unresolved'));
  });

  it('without a grid or a testimonial the draft states no number and cites nothing, with warnings', () => {
    const draft = templateDraft(sources({ grid: null, testimonial: null, contact: { name: 'Dana Whitfield', company: null } }));
    assert.deepEqual(numbersIn(`${draft.title} ${draft.excerpt} ${readBody(draft.body).text}`), []);
    assert.ok(!draft.body.includes('[^'));
    assert.ok(draft.title.startsWith('Our customer'), draft.title);
    assert.deepEqual(draft.sources_used, { grid_id: null, result_ids: [], testimonial_id: null });
    assert.equal(draft.warnings.length, 2);
    assert.ok(!seoFindings(draft).some((c) => c.startsWith('citation_')));
  });

  it('a grid without a testimonial lists the results and cites only the grid', () => {
    const draft = templateDraft(sources({ testimonial: null }));
    assert.ok(draft.body.includes(`[^grid:${GRID_ID}]`));
    assert.ok(!draft.body.includes('In their words'));
    assert.ok(!seoFindings(draft).includes('citation_unresolved'));
  });

  it('names holding digits are repeated as they are and count as allowed', () => {
    const s = sources({ contact: { name: null, company: 'Studio 54 & Sons' } });
    const draft = templateDraft(s);
    assert.ok(draft.body.includes('Studio 54 &amp; Sons'));
    assert.deepEqual(unsourcedNumbers(draft, s), []);
  });
});
