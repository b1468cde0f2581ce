const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Endings that do not close a sentence: common abbreviations and initials ("Dr.", "e.g.", "J."). */
const ABBREVIATION_END =
  /(?:\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|vs|e\.g|i\.e|Inc|Ltd|Co|Corp|No|Fig|approx|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)|\b[A-Z])\.\s*$/;

/**
 * The sentences of a text, each a verbatim slice of it (trimmed), never spanning a paragraph break. Uses the
 * platform's Unicode sentence segmentation, then re-joins splits after abbreviations and initials.
 */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  for (const paragraph of text.split(/\n[^\S\n]*\n/)) {
    let pending = '';
    for (const { segment } of segmenter.segment(paragraph)) {
      pending += segment;
      if (ABBREVIATION_END.test(pending)) continue;
      if (pending.trim()) sentences.push(pending.trim());
      pending = '';
    }
    if (pending.trim()) sentences.push(pending.trim());
  }
  return sentences;
}
