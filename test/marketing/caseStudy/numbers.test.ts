import assert from 'node:assert/strict';
import { shownNumber } from '../../../src/marketing/caseStudy/markup';
import { allowedNumbers, numbersIn, unsourcedNumbers } from '../../../src/marketing/caseStudy/numbers';
import type { CaseStudySources } from '../../../workflows/caseStudy.contract';
import { templateDraft } from '../../../src/marketing/caseStudy/template';

const SOURCES: CaseStudySources = {
  deal: { id: 'deal-1', title: 'Renewal', amount: 990_000, currency: 'USD', won_at: '2026-01-05T00:00:00Z' },
  contact: { name: 'Ravi Menon', company: 'Route 66 Logistics' },
  grid: {
    id: 'grid-1',
    name: 'Q3 rollout',
    results: [
      { id: 'r1', metric: 'Fuel cost', before: '1450.7500', after: '1210.0000', unit: 'USD' },
      { id: 'r2', metric: 'Late deliveries', before: '12.0000', after: '-0.5000', unit: '%' },
    ],
  },
  testimonial: { id: 't-1', quote: 'We saved 300 hours in 2025.', attribution: 'Ravi Menon', consent: true },
  avatar: null,
  stage: 'Decision',
};

describe('case-study numbers', () => {
  it('shows a stored numeric without the trailing zeros of its fraction and changes nothing else', () => {
    const cases: Array<[string, string]> = [
      ['12.5000', '12.5'],
      ['40.0000', '40'],
      ['0.0500', '0.05'],
      ['-3.2500', '-3.25'],
      ['1200.0000', '1200'],
      ['100', '100'],
      ['0.0000', '0'],
    ];
    for (const [stored, shown] of cases) assert.equal(shownNumber(stored), shown, stored);
  });

  it('reads number tokens with decimals and thousands commas, and ignores the ids inside source markers', () => {
    assert.deepEqual(numbersIn('from 1,200.50 to 12.5%[^grid:7f3c-11] in 2025. Then 3'), ['1,200.50', '12.5', '2025', '3']);
    assert.deepEqual(numbersIn('[^testimonial:a1b2c3]: Testimonial by Ravi'), []);
  });

  it('allows the grid values as shown and the digits inside names, never the deal amount or a date', () => {
    const allowed = allowedNumbers(SOURCES);
    for (const n of ['1450.75', '1210', '12', '0.5', '66', '3']) assert.ok(allowed.has(n), n);
    for (const n of ['990000', '990,000', '2026', '300', '2025']) assert.ok(!allowed.has(n), n);
  });

  it('finds no unsourced number in a drafted case study, the quote (verbatim, with its own numbers) left out', () => {
    const draft = templateDraft(SOURCES);
    assert.ok(draft.body.includes('We saved 300 hours in 2025.'));
    assert.deepEqual(unsourcedNumbers(draft, SOURCES), []);
  });

  it('catches a number that is not from the grid anywhere in title, excerpt or body', () => {
    const draft = templateDraft(SOURCES);
    assert.deepEqual(unsourcedNumbers({ ...draft, title: `${draft.title} in 2026` }, SOURCES), ['2026']);
    assert.deepEqual(unsourcedNumbers({ ...draft, body: draft.body.replace('</h2>', ' (7 steps)</h2>') }, SOURCES), ['7']);
  });
});
