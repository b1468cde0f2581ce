import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FailureQueue, readText, sendJson, sendRaw, startLoopbackServer, type LoopbackServer } from '../pages/loopback';
import { completion, invalidRequest, openAiError, type ChatRequest, type Override } from './completion';
import { invalidToolUse, toolCompletion, usesTools } from './tools';

export { FABRICATED_QUOTE } from './claims';

export interface ModelSimulator {
  /** The base URL for MODEL_API_URL (ends with /v1). */
  url: string;
  apiKey: string;
  /** Chat completion requests received. */
  calls: number;
  /** The bodies of the chat completion requests received, in order. */
  requests: ChatRequest[];
  /** The next `times` authorised requests answer `status` (a 429 carries Retry-After: 1). */
  failNext(times: number, status: number): void;
  /**
   * The next `times` authorised requests answer a completion whose content is not JSON (a tool request: a tool call
   * without an id or a name).
   */
  malformedNext(times: number): void;
  /** The next answer's content is exactly `content` (a tool request: the final text); queued in order. */
  answerNext(content: string): void;
  /** Next answers add a claim whose quote is NOT in the text (for the dropped-quote rule). */
  fabricateQuotes(on: boolean): void;
  /** Milliseconds every request waits before it is answered. */
  delayMs: number;
  stop(): Promise<void>;
}

/**
 * A loopback OpenAI-compatible chat-completions API: `POST /v1/chat/completions` with `Authorization: Bearer <key>`.
 * It answers extraction prompts (src/research/claims/prompt.ts) with claims quoted verbatim from the source text, and
 * image-plan prompts (src/marketing/images/modelPlan.ts) with a plan of the hero and every H2 of 40 words or more.
 * Requests with `tools` follow the tool-calling protocol, scripted by the newest user message (tools.ts).
 */
export async function startModelSimulator(options: { apiKey?: string } = {}): Promise<ModelSimulator> {
  const apiKey = options.apiKey ?? `sk-sim-${randomBytes(16).toString('hex')}`;
  const failures = new FailureQueue();
  const malformed = new FailureQueue();
  let fabricate = false;
  const scripted: string[] = [];

  const sim: ModelSimulator = {
    url: '',
    apiKey,
    calls: 0,
    requests: [],
    failNext: (times, status) => failures.arm(times, status),
    malformedNext: (times) => malformed.arm(times, 200),
    answerNext: (content) => void scripted.push(content),
    fabricateQuotes: (on) => {
      fabricate = on;
    },
    delayMs: 0,
    stop: () => server.stop(),
  };

  async function handle(req: IncomingMessage, res: ServerResponse, loopback: LoopbackServer): Promise<void> {
    const { pathname } = new URL(req.url ?? '/', loopback.origin);
    if (pathname !== '/v1/chat/completions' || req.method !== 'POST') {
      return sendJson(res, 404, openAiError(`Invalid URL (${req.method} ${pathname.slice(0, 100)})`, 'invalid_request_error', null));
    }
    sim.calls += 1;
    const text = await readText(req);
    await loopback.wait(sim.delayMs);
    const presented = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (presented !== apiKey) {
      const message = presented ? `Incorrect API key provided: ${mask(presented)}.` : "You didn't provide an API key.";
      return sendJson(res, 401, openAiError(message, 'invalid_request_error', 'invalid_api_key'));
    }
    const failure = failures.take();
    if (failure !== undefined) return fail(res, failure);
    let body: unknown;
    try {
      body = text === undefined ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const invalid = invalidRequest(body) ?? invalidToolUse(body as ChatRequest);
    if (invalid) return sendJson(res, 400, openAiError(invalid.message, 'invalid_request_error', null, invalid.param));
    const request = body as ChatRequest;
    sim.requests.push(request);
    const override: Override =
      malformed.take() !== undefined ? { malformed: true } : scripted.length > 0 ? { content: scripted.shift()! } : undefined;
    const answer = usesTools(request) ? toolCompletion(request, override) : completion(request, fabricate, override);
    sendRaw(res, 200, JSON.stringify(answer), { 'content-type': 'application/json', ...rateLimitHeaders(99) });
  }

  const server = await startLoopbackServer(handle);
  sim.url = `${server.origin}/v1`;
  return sim;
}

function fail(res: ServerResponse, status: number): void {
  if (status === 429) {
    const body = openAiError('Rate limit reached for requests. Please try again in 1s.', 'requests', 'rate_limit_exceeded');
    return sendJson(res, 429, body, { ...rateLimitHeaders(0), 'retry-after': '1' });
  }
  const message =
    status === 503
      ? 'The engine is currently overloaded, please try again later'
      : 'The server had an error while processing your request.';
  sendJson(res, status, openAiError(message, status >= 500 ? 'server_error' : 'invalid_request_error', null));
}

function rateLimitHeaders(remaining: number): Record<string, string> {
  return {
    'x-ratelimit-limit-requests': '100',
    'x-ratelimit-remaining-requests': String(remaining),
    'x-ratelimit-reset-requests': '600ms',
  };
}

/** How the provider echoes a wrong key: its first and last characters only. */
function mask(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-4)}`;
}
