import assert from 'node:assert/strict';
import { fallbackClaims } from '../../../src/research/claims/extract';
import { quoteInPassage } from '../../../src/research/claims/quotes';

const text = [
  'Heat pumps are popular. Dr. Smith measured a 3.5 kW draw on a typical heat pump in 2023 during winter tests.',
  'The company was founded in 1998 and employs 250 people across Europe today.',
  'Grants cover up to 40% of a heat pump installation for qualifying households.',
  'Installers recommend an annual service visit to keep things running smoothly.',
  '1. Check the filters regularly to keep the system running well.',
  'A typical system costs \u00a38,500 before grants and lasts about 15 years with care.',
].join('\n\n');

describe('fallback claim extractor (no model key)', () => {
  it('each claim is a fact sentence, its quote the sentence verbatim, confidence 0', () => {
    const claims = fallbackClaims(text, { topic: 'Heat pumps', keyword: 'heat pump' });
    assert.ok(claims.length >= 3);
    for (const claim of claims) {
      assert.equal(claim.claim, claim.quote);
      assert.equal(claim.confidence_score, 0);
      assert.ok(text.includes(claim.quote), `not verbatim: ${claim.quote}`);
      assert.ok(quoteInPassage(claim.quote, text));
    }
  });

  it('sentences without a number, percentage, year, amount or quantity are not claims', () => {
    const quotes = fallbackClaims(text, { topic: 'Heat pumps', keyword: null }).map((c) => c.quote);
    assert.ok(!quotes.some((q) => q.startsWith('Installers recommend')), quotes.join(' | '));
    assert.ok(!quotes.some((q) => q.startsWith('Heat pumps are popular')), 'short plain sentence');
    assert.ok(!quotes.some((q) => q.includes('Check the filters')), 'a list number is not a fact');
  });

  it('prefers sentences that mention the keyword or topic words', () => {
    const quotes = fallbackClaims(text, { topic: 'Heat pumps', keyword: 'heat pump', maxClaims: 2 }).map((c) => c.quote);
    assert.equal(quotes.length, 2);
    for (const quote of quotes) assert.match(quote, /heat pump/i);
    assert.ok(!quotes.some((q) => q.includes('founded in 1998')));
  });

  it('does not split sentences after abbreviations such as "Dr."', () => {
    const quotes = fallbackClaims(text, { topic: 'Heat pumps', keyword: null }).map((c) => c.quote);
    assert.ok(quotes.includes('Dr. Smith measured a 3.5 kW draw on a typical heat pump in 2023 during winter tests.'), quotes.join(' | '));
  });

  it('maxClaims bounds the claims; text without facts gives none', () => {
    assert.equal(fallbackClaims(text, { topic: 'x', keyword: null, maxClaims: 1 }).length, 1);
    assert.deepEqual(fallbackClaims('Nothing measurable is said here at all, only opinions.', { topic: 'x', keyword: null }), []);
  });
});
