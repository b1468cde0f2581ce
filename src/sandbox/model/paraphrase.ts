import { PARAPHRASE_REQUEST_END, PARAPHRASE_REQUEST_START, type ParaphraseRequest } from '../../marketing/proofPack/paraphrasePrompt';

/** The paraphrase request in a user message written by src/marketing/proofPack/paraphrasePrompt.ts; undefined otherwise. */
export function readParaphraseRequest(content: string): ParaphraseRequest | undefined {
  const start = content.indexOf(`${PARAPHRASE_REQUEST_START}\n`);
  const end = content.lastIndexOf(`\n${PARAPHRASE_REQUEST_END}`);
  if (start < 0 || end < start) return undefined;
  try {
    const request = JSON.parse(content.slice(start + PARAPHRASE_REQUEST_START.length + 1, end)) as ParaphraseRequest;
    return Array.isArray(request?.texts) ? request : undefined;
  } catch {
    return undefined;
  }
}

const THIRD_PERSON: Array<[RegExp, string]> = [
  [/\b(?:I|we)\b/g, 'they'],
  [/\b(?:me|us)\b/gi, 'them'],
  [/\b(?:my|our)\b/gi, 'their'],
  [/\bI'm\b|\bwe're\b/gi, "they're"],
];

/** What the simulated model writes: each text retold in the third person after "The customer said that", no names added. */
export function simulatedParaphrases(request: ParaphraseRequest): { paraphrases: Array<{ index: number; text: string }> } {
  return {
    paraphrases: request.texts.map(({ index, text }) => {
      const retold = THIRD_PERSON.reduce((s, [pattern, to]) => s.replace(pattern, to), text.trim().replace(/[.!?]+$/, ''));
      const sentence = `The customer said that ${retold.charAt(0).toLowerCase()}${retold.slice(1)}.`;
      return { index, text: [...sentence].slice(0, Math.max(1, request.max_chars)).join('') };
    }),
  };
}
