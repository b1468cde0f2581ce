const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'from',
  'that',
  'this',
  'what',
  'how',
  'why',
  'when',
  'who',
  'are',
  'was',
  'were',
  'is',
  'of',
  'to',
  'in',
  'on',
  'a',
  'an',
  'or',
  'by',
  'at',
  'as',
  'be',
  'it',
  'its',
  'your',
  'you',
  'our',
  'their',
  'vs',
  'best',
  'guide',
  'about',
  'into',
  'more',
  'most',
  'than',
  'does',
  'do',
  'can',
  'should',
  'will',
]);

/** The words of a topic and keyword worth matching in a sentence (lower case, no stop words, plural -s dropped). */
export function topicStems(topic: string, keyword: string | null): string[] {
  const words = `${topic} ${keyword ?? ''}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const stems = words.filter((w) => w.length >= 3 && !STOP_WORDS.has(w)).map((w) => (w.length > 4 && w.endsWith('s') ? w.slice(0, -1) : w));
  return [...new Set(stems)];
}

/** How strongly a sentence is about the topic: each stem it mentions counts, the whole keyword phrase more. */
export function relevance(sentence: string, stems: string[], keyword: string | null): number {
  const lower = sentence.toLowerCase();
  const words = lower.match(/[\p{L}\p{N}]+/gu) ?? [];
  const mentioned = stems.filter((stem) => words.some((word) => word.startsWith(stem))).length;
  const phrase = keyword && keyword.trim().length > 0 && lower.includes(keyword.trim().toLowerCase()) ? 2 : 0;
  return mentioned + phrase;
}
