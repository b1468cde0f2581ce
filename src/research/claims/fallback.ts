import type { ExtractedClaim } from './claim';
import { factKinds } from './facts';
import { relevance, topicStems } from './relevance';
import { sentencesOf } from './sentences';

export const DEFAULT_MAX_CLAIMS = 8;
/** Shorter sentences are mostly captions and bylines; longer ones are run-on text that quotes badly. */
const MIN_SENTENCE = 25;
const MAX_SENTENCE = 500;

/**
 * Sentences that carry facts (a number, a percentage, a year, a money amount, a measured quantity), preferring ones
 * that mention the keyword/topic words; each claim IS its sentence and its quote is the sentence verbatim.
 */
export function fallbackClaims(text: string, input: { topic: string; keyword: string | null; maxClaims?: number }): ExtractedClaim[] {
  const stems = topicStems(input.topic, input.keyword);
  const seen = new Set<string>();
  const ranked = sentencesOf(text)
    .map((sentence, position) => ({
      sentence,
      position,
      facts: factKinds(sentence).length,
      about: relevance(sentence, stems, input.keyword),
    }))
    .filter((s) => s.facts > 0 && s.sentence.length >= MIN_SENTENCE && s.sentence.length <= MAX_SENTENCE)
    .filter((s) => !seen.has(s.sentence) && seen.add(s.sentence))
    .sort((a, b) => b.about - a.about || b.facts - a.facts || a.position - b.position);
  return ranked
    .slice(0, Math.max(0, input.maxClaims ?? DEFAULT_MAX_CLAIMS))
    .map(({ sentence }) => ({ claim: sentence, quote: sentence, confidence_score: 0 }));
}
