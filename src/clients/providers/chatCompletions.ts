import { z } from 'zod';
import type { Config } from '../../config';
import { ProviderError, statusError } from './errors';
import { callJson } from './jsonCall';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatClient {
  /** The assistant's answer (`choices[0].message.content`) to `messages`, at temperature 0. */
  complete(messages: ChatMessage[], options?: { jsonObject?: boolean; maxTokens?: number; signal?: AbortSignal }): Promise<string>;
}

/** The settings a chat-model client reads. */
export type ModelConfig = Pick<Config, 'MODEL_API_URL' | 'MODEL_API_KEY' | 'MODEL_CHAT_MODEL' | 'FETCH_TIMEOUT_MS'>;

const WHAT = 'the model API';
/** Completions take long; never wait less than this whatever FETCH_TIMEOUT_MS says. */
const MIN_TIMEOUT_MS = 60_000;

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
});

/**
 * A client of an OpenAI-compatible chat-completions API: `POST <MODEL_API_URL>/chat/completions` with a Bearer key.
 * Null when no key is configured. It does not retry: callers (Temporal activities) retry errors marked retryable.
 */
export function createChatClient(config: ModelConfig): ChatClient | null {
  if (!config.MODEL_API_KEY) return null;
  return {
    async complete(messages, options = {}) {
      const body = {
        model: config.MODEL_CHAT_MODEL,
        messages,
        temperature: 0,
        ...(options.jsonObject ? { response_format: { type: 'json_object' } } : {}),
        ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
      };
      const answer = await postChatCompletion(config, body, options.signal);
      const parsed = completionSchema.safeParse(answer.json);
      if (!parsed.success) throw badResponse('answered with a body that is not a chat completion', answer.status);
      const { message } = parsed.data.choices[0];
      if (message.refusal) throw badResponse('refused the request', answer.status);
      if (typeof message.content !== 'string') throw badResponse('answered without content', answer.status);
      return message.content;
    },
  };
}

/**
 * One `POST <MODEL_API_URL>/chat/completions` of `body` with the Bearer key; a non-2xx answer throws its coded
 * ProviderError. Shared by this client and the tool-calling one (chatTools.ts), so both fail the same way.
 */
export async function postChatCompletion(
  config: ModelConfig,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ status: number; json: unknown }> {
  const endpoint = `${config.MODEL_API_URL.replace(/\/+$/, '')}/chat/completions`;
  const answer = await callJson('model', WHAT, endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.MODEL_API_KEY}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: Math.max(config.FETCH_TIMEOUT_MS, MIN_TIMEOUT_MS),
    maxBytes: 4 * 1024 * 1024,
    signal,
  });
  if (answer.status < 200 || answer.status > 299) throw answerError(answer.status, answer.headers['retry-after'], answer.json);
  return { status: answer.status, json: answer.json };
}

/** Like statusError, except that a 429 for an exhausted quota will not pass by retrying. */
export function answerError(status: number, retryAfter: string | string[] | undefined, json: unknown): ProviderError {
  const code = (json as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (status === 429 && code === 'insufficient_quota') {
    return new ProviderError('model', 'model_rate_limited', `${WHAT} refused the call: the account's quota is used up`, false, status);
  }
  return statusError('model', WHAT, status, retryAfter);
}

/** model_bad_response (not retryable): `what` finishes the sentence "the model API …". */
export const badResponse = (what: string, status: number) =>
  new ProviderError('model', 'model_bad_response', `${WHAT} ${what}`, false, status);
