import { createHash } from 'node:crypto';
import { SOURCE_END, SOURCE_START } from '../../research/claims/prompt';

export interface ExtractionRequest {
  topic: string;
  keyword: string | null;
  maxClaims: number;
  text: string;
}
export interface SimulatedClaim {
  claim: string;
  quote: string;
  confidence: number;
}

/** A quote no source text holds, for the dropped-quote rule. */
export const FABRICATED_QUOTE = 'Independent auditors confirmed a 97% success rate across 12,000 installations in 2019.';

/** The extraction request in a user message written by src/research/claims/prompt.ts; undefined for any other prompt. */
export function readExtractionRequest(content: string): ExtractionRequest | undefined {
  const start = content.indexOf(`${SOURCE_START}\n`);
  const end = content.lastIndexOf(`\n${SOURCE_END}`);
  if (start < 0 || end < start) return undefined;
  const header = content.slice(0, start);
  const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(header)?.[1]?.trim();
  const keyword = field('Keyword');
  return {
    topic: field('Topic') ?? '',
    keyword: keyword && keyword !== 'none' ? keyword : null,
    maxClaims: Math.max(0, Number(field('Maximum claims')) || 8),
    text: content.slice(start + SOURCE_START.length + 1, end),
  };
}

/**
 * What the simulated model "extracts": sentences of the text that carry a number, those about the topic first,
 * each quoted verbatim with a restated claim and a confidence between 0.6 and 0.9 fixed by the sentence.
 */
export function simulatedClaims(request: ExtractionRequest, fabricate: boolean): SimulatedClaim[] {
  const words = `${request.topic} ${request.keyword ?? ''}`.toLowerCase().match(/[\p{L}]{4,}/gu) ?? [];
  const factual = sentences(request.text).filter((s) => /\d/.test(s) && s.length >= 25 && s.length <= 500);
  const about = (s: string) => words.some((w) => s.toLowerCase().includes(w.replace(/s$/, '')));
  // A fabricated claim takes one of the places, so a client keeping `maxClaims` claims still sees it.
  const places = Math.max(0, request.maxClaims - (fabricate ? 1 : 0));
  const chosen = [...factual.filter(about), ...factual.filter((s) => !about(s))].slice(0, places);
  const claims = chosen.map((quote) => ({ claim: restate(quote), quote, confidence: confidenceOf(quote) }));
  if (fabricate) claims.push({ claim: 'Installations are almost always successful.', quote: FABRICATED_QUOTE, confidence: 0.7 });
  return claims;
}

function sentences(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => paragraph.split(/(?<=[.!?])\s+(?=["“(]?[A-Z0-9])/))
    .map((s) => s.trim())
    .filter(Boolean);
}

function restate(sentence: string): string {
  return `The source reports that ${sentence.charAt(0).toLowerCase()}${sentence.slice(1).replace(/[.!?]+$/, '')}.`;
}

function confidenceOf(sentence: string): number {
  const n = createHash('sha256').update(sentence).digest().readUInt16BE(0);
  return Math.round((0.6 + (n % 31) / 100) * 100) / 100;
}
