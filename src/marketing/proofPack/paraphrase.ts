import { z } from 'zod';
import type { ChatClient } from '../../clients/providers/chatCompletions';
import { jsonOfAnswer } from '../../clients/providers/jsonAnswer';
import { MAX_ENTRY_CHARS, clipAtWord } from './clip';
import { namesAPerson, stripNames } from './nameStrip';
import { paraphraseMessages } from './paraphrasePrompt';
import type { RawProof } from './types';

/** A pack answers a reader waiting on a GET: a slow model costs the paraphrase, not the request. */
const MODEL_TIMEOUT_MS = 20_000;

const answerSchema = z.object({
  paraphrases: z.array(z.object({ index: z.int().min(0), text: z.string().trim().min(1) })),
});

export interface Paraphrased {
  texts: string[];
  writer: 'model' | 'name_strip';
  notes: string[];
}

function parseAnswer(text: string): Map<number, string> | undefined {
  try {
    const parsed = answerSchema.safeParse(jsonOfAnswer(text));
    return parsed.success ? new Map(parsed.data.paraphrases.map((p) => [p.index, p.text])) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Paraphrases consent-false texts without names: one JSON chat call for the batch when a model is configured, the
 * name-stripping fallback otherwise. The model sees the texts already stripped; a paraphrase that is missing, empty or
 * still names one of the source's people (or any paraphrase when the call fails) is replaced by the fallback's text.
 */
export async function paraphraseAll(chat: ChatClient | null, proofs: RawProof[]): Promise<Paraphrased> {
  const stripped = proofs.map((p) => clipAtWord(stripNames(p.text, p.names)));
  if (!chat || proofs.length === 0) return { texts: stripped, writer: 'name_strip', notes: [] };
  let answer: Map<number, string> | undefined;
  try {
    const request = { max_chars: MAX_ENTRY_CHARS, texts: stripped.map((text, index) => ({ index, text })) };
    const text = await chat.complete(paraphraseMessages(request), {
      jsonObject: true,
      maxTokens: 200 + 200 * proofs.length,
      signal: AbortSignal.timeout(MODEL_TIMEOUT_MS),
    });
    answer = parseAnswer(text);
  } catch {
    answer = undefined;
  }
  if (!answer) {
    return { texts: stripped, writer: 'name_strip', notes: ['The model gave no usable paraphrase; names were stripped instead.'] };
  }
  let replaced = 0;
  const texts = proofs.map((proof, i) => {
    const candidate = answer.get(i);
    const usable = candidate !== undefined && !namesAPerson(candidate, proof.names);
    if (!usable) replaced += 1;
    return usable ? clipAtWord(stripNames(candidate, [])) : stripped[i];
  });
  const notes = replaced > 0 ? [`${replaced} model paraphrase(s) were missing or named someone; names were stripped instead.`] : [];
  return { texts, writer: 'model', notes };
}
