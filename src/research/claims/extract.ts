import type { ChatClient } from '../../clients/providers/chatCompletions';
import { ProviderError } from '../../clients/providers/errors';
import { jsonOfAnswer } from '../../clients/providers/jsonAnswer';
import { DEFAULT_MAX_CLAIMS, fallbackClaims } from './fallback';
import type { ExtractedClaim, Extraction } from './claim';
import { extractionMessages } from './prompt';

export { fallbackClaims } from './fallback';

export type { ExtractedClaim, Extraction };

/** Room for the JSON of one claim (a sentence of claim and one of quote) in the answer. */
const TOKENS_PER_CLAIM = 250;

/**
 * With a chat client: asks the model (JSON object {claims:[{claim, quote, confidence}]}) for claims relevant to the
 * topic/keyword, each with a VERBATIM quote copied from the text. Without one: the fallback extractor (extraction
 * 'fallback', confidence_score 0 on every claim). A malformed model answer → ProviderError model_bad_response.
 * Quotes are returned as the model gave them: the caller checks them against the text (quoteInPassage).
 */
export async function extractClaims(
  chat: ChatClient | null,
  input: { topic: string; keyword: string | null; text: string; maxClaims?: number; signal?: AbortSignal },
): Promise<Extraction> {
  const maxClaims = Math.max(0, input.maxClaims ?? DEFAULT_MAX_CLAIMS);
  if (!chat) return { extraction: 'fallback', claims: fallbackClaims(input.text, { ...input, maxClaims }) };
  if (!input.text.trim() || maxClaims === 0) return { extraction: 'model', claims: [] };
  const answer = await chat.complete(extractionMessages({ ...input, maxClaims }), {
    jsonObject: true,
    maxTokens: 200 + TOKENS_PER_CLAIM * maxClaims,
    signal: input.signal,
  });
  return { extraction: 'model', claims: modelClaims(answer, maxClaims) };
}

/** The claims of a model answer: well-formed items kept (first of each quote), confidence read into 0..1. */
function modelClaims(answer: string, maxClaims: number): ExtractedClaim[] {
  const items = claimItems(answer);
  const claims: ExtractedClaim[] = [];
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const { claim, quote, confidence } = item as Record<string, unknown>;
    if (typeof claim !== 'string' || typeof quote !== 'string' || !claim.trim() || !quote.trim()) continue;
    if (claims.some((c) => c.quote === quote.trim())) continue;
    claims.push({ claim: claim.trim(), quote: quote.trim(), confidence_score: confidenceScore(confidence) });
  }
  if (items.length > 0 && claims.length === 0) throw badAnswer('claims without a claim and a quote');
  return claims.slice(0, maxClaims);
}

function claimItems(answer: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = jsonOfAnswer(answer);
  } catch {
    throw badAnswer('an answer that is not JSON');
  }
  const claims = (parsed as { claims?: unknown } | null)?.claims;
  if (!Array.isArray(claims)) throw badAnswer('an answer without a claims array');
  return claims;
}

/** 0..1 rounded to two decimals; a percentage (e.g. 85) is read as 0.85; missing or unreadable is 0.5. */
function confidenceScore(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return 0.5;
  const scaled = n > 1 && n <= 100 ? n / 100 : n;
  return Math.round(Math.min(1, Math.max(0, scaled)) * 100) / 100;
}

const badAnswer = (what: string) => new ProviderError('model', 'model_bad_response', `the model API gave ${what}`, false);
