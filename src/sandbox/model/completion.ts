import { randomBytes } from 'node:crypto';
import { readExtractionRequest, simulatedClaims } from './claims';
import { readCaseStudyRequest, simulatedCaseStudy } from './caseStudy';
import { readPlanRequest, simulatedPlan } from './imagePlan';
import { readParaphraseRequest, simulatedParaphrases } from './paraphrase';

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: string };
}

/** An OpenAI-style `{ error: {...} }` body. */
export function openAiError(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** Why a request is not a valid chat completion request, or undefined when it is. */
export function invalidRequest(body: unknown): string | undefined {
  const request = body as Partial<ChatRequest> | undefined;
  if (!request || typeof request !== 'object') return 'We could not parse the JSON body of your request.';
  if (typeof request.model !== 'string' || !request.model) return 'you must provide a model parameter';
  if (!Array.isArray(request.messages) || request.messages.length === 0) return "'messages' must be a non-empty array";
  if (request.messages.some((m) => !m || typeof m.role !== 'string' || typeof m.content !== 'string'))
    return "each message needs a 'role' and a string 'content'";
  if (request.response_format?.type === 'json_object' && !request.messages.some((m) => /json/i.test(m.content))) {
    return "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.";
  }
  return undefined;
}

/** A chat.completion answer built deterministically from the request; `max_tokens` cuts the content off. */
export function completion(request: ChatRequest, fabricate: boolean) {
  const user = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  let content = answerOf(user, request.response_format?.type === 'json_object', fabricate);
  let finish = 'stop';
  if (request.max_tokens && tokens(content) > request.max_tokens) {
    content = content.slice(0, request.max_tokens * 4);
    finish = 'length';
  }
  const promptTokens = request.messages.reduce((sum, m) => sum + tokens(m.content), 0);
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: promptTokens, completion_tokens: tokens(content), total_tokens: promptTokens + tokens(content) },
    system_fingerprint: 'fp_workyard_sim',
  };
}

/** Claims for an extraction prompt, a plan for an image-plan prompt; anything else gets a polite non-answer. */
function answerOf(user: string, json: boolean, fabricate: boolean): string {
  const extraction = readExtractionRequest(user);
  if (extraction) return JSON.stringify({ claims: simulatedClaims(extraction, fabricate) });
  const plan = readPlanRequest(user);
  if (plan) return JSON.stringify(simulatedPlan(plan));
  const caseStudy = readCaseStudyRequest(user);
  if (caseStudy) return JSON.stringify(simulatedCaseStudy(caseStudy));
  const paraphrase = readParaphraseRequest(user);
  if (paraphrase) return JSON.stringify(simulatedParaphrases(paraphrase));
  return json ? '{"claims":[]}' : 'This simulated model only extracts claims from a source text and plans article images.';
}

/** Roughly four characters per token, as for English text. */
function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}
