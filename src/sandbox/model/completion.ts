import { randomBytes } from 'node:crypto';
import { readExtractionRequest, simulatedClaims } from './claims';
import { readCaseStudyRequest, simulatedCaseStudy } from './caseStudy';
import { readPlanRequest, simulatedPlan } from './imagePlan';
import { readParaphraseRequest, simulatedParaphrases } from './paraphrase';

/**
 * A message as received: an assistant's may carry `tool_calls`, a tool's its `tool_call_id`. An assistant message that
 * only calls tools has null `content`: typed string all the same for the readers of `requests`, who look at the system
 * and user messages; the simulator's own code reads it as `content ?? ''`.
 */
export interface ChatMessage {
  role: string;
  content: string;
  tool_calls?: ToolCallOut[];
  tool_call_id?: string;
}

/** A tool call as the protocol writes it, in answers and in the assistant messages sent back. */
export interface ToolCallOut {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: string };
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters?: Record<string, unknown> } }>;
  tool_choice?: unknown;
}

/** Why a request is refused (400), and the parameter at fault as OpenAI names it. */
export interface Invalid {
  message: string;
  param: string | null;
}

/** What the knobs ask of the next answer: a malformed one (malformedNext), or exactly this content (answerNext). */
export type Override = { malformed: true } | { content: string } | undefined;

/** An OpenAI-style `{ error: {...} }` body. */
export function openAiError(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** Why a request is not a valid chat completion request, or undefined when it is (tools.ts checks the tool parts). */
export function invalidRequest(body: unknown): Invalid | undefined {
  const request = body as Partial<ChatRequest> | undefined;
  const refuse = (message: string, param: string | null = null) => ({ message, param });
  if (!request || typeof request !== 'object') return refuse('We could not parse the JSON body of your request.');
  if (typeof request.model !== 'string' || !request.model) return refuse('you must provide a model parameter', 'model');
  if (!Array.isArray(request.messages) || request.messages.length === 0) return refuse("'messages' must be a non-empty array", 'messages');
  // An assistant message that calls tools may have null content.
  const contentOk = (m: ChatMessage) =>
    typeof m.content === 'string' || (m.role === 'assistant' && m.tool_calls !== undefined && !m.content);
  if (request.messages.some((m) => !m || typeof m.role !== 'string' || !contentOk(m)))
    return refuse("each message needs a 'role' and a string 'content'", 'messages');
  if (request.response_format?.type === 'json_object' && !request.messages.some((m) => /json/i.test(m.content ?? ''))) {
    return refuse("'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", 'messages');
  }
  return undefined;
}

/** A chat.completion answer built deterministically from the request; `max_tokens` cuts the content off. */
export function completion(request: ChatRequest, fabricate: boolean, override: Override = undefined) {
  if (override && 'malformed' in override)
    return textCompletion(request, 'Here are the claims I found: the text mentions several numbers.');
  if (override) return textCompletion(request, override.content);
  const user = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  return textCompletion(request, answerOf(user, request.response_format?.type === 'json_object', fabricate), true);
}

/** A text answer, cut off at `max_tokens` (finish_reason 'length') when `limited`. */
export function textCompletion(request: ChatRequest, text: string, limited = false) {
  if (limited && request.max_tokens && tokens(text) > request.max_tokens) {
    return chatCompletion(request, { role: 'assistant', content: text.slice(0, request.max_tokens * 4), refusal: null }, 'length');
  }
  return chatCompletion(request, { role: 'assistant', content: text, refusal: null }, 'stop');
}

/** The chat.completion envelope of one answer message, with its usage. */
export function chatCompletion(
  request: ChatRequest,
  message: { role: 'assistant'; content: string | null; refusal: null; tool_calls?: unknown[] },
  finish: string,
) {
  const promptTokens = request.messages.reduce(
    (sum, m) => sum + tokens(m.content ?? '') + (m.tool_calls ? tokens(JSON.stringify(m.tool_calls)) : 0),
    0,
  );
  const completionTokens = tokens(message.content ?? JSON.stringify(message.tool_calls ?? []));
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
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
