import assert from 'node:assert/strict';
import { buildResearchStamp, MAX_STAMP_CHARACTERS, MAX_STAMP_ITEMS } from '../../src/research/stamp';
import type { ResearchClaim, ResearchResult } from '../../workflows/research.contract';

const claim = (i: number, size = 120): ResearchClaim => ({
  claim: `Claim ${i} ${'x'.repeat(size)}`,
  quote: `Quote ${i} ${'y'.repeat(size)}`,
  kind: i % 2 ? 'web' : 'kb',
  source_url: i % 2 ? `https://example.test/${i}` : null,
  extraction: 'model',
  confidence_score: 0.8,
});

function result(extra: Partial<ResearchResult> = {}): ResearchResult {
  return {
    run_id: 'research:acct:key',
    content_id: 'c1',
    topic: 'Heat pumps',
    keyword: 'heat pump savings',
    knowledge_base_id: 'kb1',
    artifact_id: 'a1',
    artifact_created: true,
    extraction: 'model',
    claims: [claim(1), claim(2)],
    sources: [{ url: 'https://example.test/1', title: 'One', indexed: true, already_indexed: false, claims: 1 }],
    serp: { query: 'heat pump savings', results: [] },
    warnings: [],
    gaps: [],
    ...extra,
  };
}

const size = (value: unknown) => JSON.stringify(value).length;

describe('research stamp (settings.research)', () => {
  it('a small run is stamped whole, pointing at its artifact', () => {
    const stamp = buildResearchStamp(result(), '2026-11-22T10:00:00.000Z');
    assert.equal(stamp.artifact_id, 'a1');
    assert.equal(stamp.claims.length, 2);
    assert.equal(stamp.claim_count, 2);
    assert.equal(stamp.truncated, false);
    assert.equal(stamp.researched_at, '2026-11-22T10:00:00.000Z');
  });

  it('sources and gaps are trimmed to 10 and the stamp stays within 8,000 characters', () => {
    const sources = Array.from({ length: 25 }, (_, i) => ({
      url: `https://example.test/page/${i}`,
      title: `Page ${i}`,
      indexed: true,
      already_indexed: false,
      claims: 2,
    }));
    const gaps = Array.from({ length: 25 }, (_, i) => `https://example.test/gap/${i}: not read (page_status: page answered 404)`);
    const stamp = buildResearchStamp(result({ sources, gaps, claims: Array.from({ length: 60 }, (_, i) => claim(i)) }), 'now');
    assert.equal(stamp.sources.length <= MAX_STAMP_ITEMS, true);
    assert.equal(stamp.gaps.length <= MAX_STAMP_ITEMS, true);
    assert.equal(stamp.source_count, 25);
    assert.equal(stamp.gap_count, 25);
    assert.equal(stamp.claim_count, 60);
    assert.ok(stamp.claims.length < 60, 'claims that do not fit are left out');
    assert.equal(stamp.truncated, true);
    assert.ok(size(stamp) <= MAX_STAMP_CHARACTERS, `stamp is ${size(stamp)} characters`);
  });

  it('long texts and huge URLs never push the stamp over 8,000 characters', () => {
    const huge = (i: number) => `https://example.test/${'p'.repeat(3000)}/${i}`;
    const stamp = buildResearchStamp(
      result({
        claims: Array.from({ length: 30 }, (_, i) => claim(i, 5000)),
        sources: Array.from({ length: 12 }, (_, i) => ({
          url: huge(i),
          title: 't'.repeat(5000),
          indexed: true,
          already_indexed: false,
          claims: 1,
        })),
        gaps: Array.from({ length: 12 }, (_, i) => `${huge(i)}: skipped`),
      }),
      'now',
    );
    assert.ok(size(stamp) <= MAX_STAMP_CHARACTERS, `stamp is ${size(stamp)} characters`);
    assert.equal(stamp.truncated, true);
    assert.ok(stamp.claims.every((c) => c.claim.length <= 400 && c.quote.length <= 400));
  });

  it('a run with nothing found is stamped with empty lists', () => {
    const stamp = buildResearchStamp(result({ claims: [], sources: [], serp: null, warnings: ['cap reached'] }), 'now');
    assert.deepEqual([stamp.claims, stamp.sources, stamp.gaps], [[], [], []]);
    assert.equal(stamp.serp_query, null);
    assert.equal(stamp.warning_count, 1);
  });
});
