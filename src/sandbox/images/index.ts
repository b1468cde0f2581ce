import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../kit/readBody';
import { sendJson, sendRaw, startLoopbackServer, type LoopbackServer } from '../pages/loopback';
import { parseForm } from './form';
import { renderImage } from './render';
import { readImageRequest, type Endpoint, type ImageSimRequest } from './request';

export type { ImageSimRequest } from './request';

export interface ImageFault {
  status: number;
  /** The answer's `error.code`; by default one that fits the status (`rate_limit_exceeded`, `moderation_blocked` …). */
  code?: string;
  /** A 429's Retry-After header; default `1`. */
  retryAfter?: string;
}

export type MalformedKind = 'not_json' | 'not_image' | 'no_data';

export interface ImageSimulator {
  /** The base URL for IMAGE_API_URL (ends with /v1). */
  url: string;
  apiKey: string;
  /** POSTs received on either endpoint, valid or not. */
  calls: number;
  /** The valid requests received, in order, with the status each was answered (200, or an injected failure's). */
  requests: Array<ImageSimRequest & { status: number }>;
  /** Renders running now, and the most that ever ran at once (concurrency checks). */
  inFlight: number;
  maxInFlight: number;
  /** Milliseconds each rendered image takes (a request for n images waits n times this). */
  delayMs: number;
  /** The next `times` valid requests answer `status` at once, before any render delay (a 429 carries Retry-After). */
  failNext(times: number, status: number, fault?: Omit<ImageFault, 'status'>): void;
  /** Every valid request whose prompt contains `substring` fails after its render delay, until clearFaults(). */
  failPrompts(substring: string, status: number, fault?: Omit<ImageFault, 'status'>): void;
  /** The next `times` renders answer 200 with a broken body. */
  malformedNext(times: number, kind?: MalformedKind): void;
  /** The next render answers exactly these bytes as its b64_json (any size, any format); queued in order. */
  answerNext(bytes: Buffer): void;
  /** Clears armed failures, malformed and scripted answers, the delay and the request log. */
  reset(): void;
  stop(): Promise<void>;
}

const MAX_BODY_BYTES = 100 * 1024 * 1024;
const MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * A loopback OpenAI-compatible Images API: `POST /v1/images/generations` (JSON) and `POST /v1/images/edits`
 * (multipart, `image[]` parts) with `Authorization: Bearer <key>`, answering `{created, data: [{b64_json}]}` with real
 * PNG (or JPEG/WebP per `output_format`) images rendered from the prompt at the asked size. It validates what the
 * public reference validates per model (sizes, n, prompt length, input images), and fails or slows on demand.
 */
export async function startImageSimulator(options: { apiKey?: string } = {}): Promise<ImageSimulator> {
  const apiKey = options.apiKey ?? `sk-sim-img-${randomBytes(16).toString('hex')}`;
  let nextFaults: Array<ImageFault> = [];
  let promptFaults: Array<ImageFault & { substring: string }> = [];
  let malformed: MalformedKind[] = [];
  let scripted: Buffer[] = [];

  const sim: ImageSimulator = {
    url: '',
    apiKey,
    calls: 0,
    requests: [],
    inFlight: 0,
    maxInFlight: 0,
    delayMs: 0,
    failNext: (times, status, fault = {}) => {
      for (let i = 0; i < times; i += 1) nextFaults.push({ ...fault, status });
    },
    failPrompts: (substring, status, fault = {}) => void promptFaults.push({ ...fault, status, substring }),
    malformedNext: (times, kind = 'not_json') => {
      for (let i = 0; i < times; i += 1) malformed.push(kind);
    },
    answerNext: (bytes) => void scripted.push(bytes),
    reset: () => {
      nextFaults = [];
      promptFaults = [];
      malformed = [];
      scripted = [];
      sim.delayMs = 0;
      sim.requests = [];
      sim.maxInFlight = sim.inFlight;
    },
    stop: () => server.stop(),
  };

  async function handle(req: IncomingMessage, res: ServerResponse, loopback: LoopbackServer): Promise<void> {
    const { pathname } = new URL(req.url ?? '/', loopback.origin);
    const endpoint: Endpoint | undefined =
      pathname === '/v1/images/generations' ? 'generations' : pathname === '/v1/images/edits' ? 'edits' : undefined;
    if (!endpoint || req.method !== 'POST') {
      return sendJson(res, 404, openAiError(`Invalid URL (${req.method} ${pathname.slice(0, 100)})`, null, null));
    }
    sim.calls += 1;
    const raw = await readBody(req, MAX_BODY_BYTES);
    const presented = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (presented !== apiKey) {
      const message = presented ? `Incorrect API key provided: ${mask(presented)}.` : "You didn't provide an API key.";
      return sendJson(res, 401, openAiError(message, null, 'invalid_api_key'));
    }
    if (!raw) return sendJson(res, 413, openAiError('Request body too large.', null, 'request_too_large'));
    const contentType = String(req.headers['content-type'] ?? '');
    let input: Record<string, unknown> | undefined;
    let form;
    if (endpoint === 'generations') {
      if (!/^application\/json\b/i.test(contentType)) return invalid(res, 'Invalid Content-Type header, expected application/json.', null);
      input = parseObject(raw.toString('utf8'));
      if (!input) return invalid(res, 'We could not parse the JSON body of your request.', null);
    } else {
      if (!/^multipart\/form-data\b/i.test(contentType)) {
        return invalid(res, `Invalid Content-Type header (${contentType.slice(0, 60)}), expected multipart/form-data.`, null);
      }
      form = await parseForm(raw, contentType, MAX_FILE_BYTES);
      if (!form) return invalid(res, 'We could not parse the multipart body of your request.', null);
      input = { ...form.fields, ...Object.fromEntries(form.files.map((f) => [f.field, true])) };
    }
    const request = await readImageRequest(endpoint, input, form);
    if ('message' in request) {
      return sendJson(res, request.status, openAiError(request.message, request.param, request.code));
    }
    const record = { ...request, status: 200 };
    sim.requests.push(record);
    const armed = nextFaults.shift();
    if (armed) {
      record.status = armed.status;
      return fail(res, armed);
    }

    sim.inFlight += 1;
    sim.maxInFlight = Math.max(sim.maxInFlight, sim.inFlight);
    // What this request answers is taken as it arrives: a request its caller abandoned mid-delay must not take the
    // answers armed for the next one.
    const kind = malformed.shift();
    const scripts = Array.from({ length: request.n }, () => scripted.shift());
    try {
      await loopback.wait(sim.delayMs * request.n);
      const byPrompt = promptFaults.find((f) => request.prompt.includes(f.substring));
      if (byPrompt) {
        record.status = byPrompt.status;
        return fail(res, byPrompt);
      }
      if (kind === 'not_json')
        return sendRaw(res, 200, '{"created": 1700000000, "data": [{"b64_json": "iVBORw0KGgo', { 'content-type': 'application/json' });
      const images: Buffer[] = [];
      for (let index = 0; index < request.n; index += 1) {
        const script = scripts[index];
        images.push(
          kind === 'not_image'
            ? Buffer.from('this is not an image, just some text that was base64-encoded')
            : (script ?? (await renderImage({ ...request, format: request.outputFormat, references: request.references.length, index }))),
        );
      }
      const body = answer(request, kind === 'no_data' ? [] : images);
      sendRaw(res, 200, JSON.stringify(body), {
        'content-type': 'application/json',
        'x-request-id': `req_${randomUUID().replace(/-/g, '')}`,
      });
    } finally {
      sim.inFlight -= 1;
    }
  }

  const server = await startLoopbackServer(handle);
  sim.url = `${server.origin}/v1`;
  return sim;
}

function answer(request: ImageSimRequest, images: Buffer[]) {
  const gpt = request.model.startsWith('gpt-image');
  return {
    created: Math.floor(Date.now() / 1000),
    data: images.map((bytes) => ({
      b64_json: bytes.toString('base64'),
      ...(request.model === 'dall-e-3' ? { revised_prompt: `A detailed illustration: ${request.prompt}` } : {}),
    })),
    ...(gpt
      ? {
          background: 'opaque',
          output_format: request.outputFormat,
          quality: 'medium',
          size: `${request.width}x${request.height}`,
          usage: { input_tokens: Math.ceil(request.prompt.length / 4), output_tokens: 1056 * images.length, total_tokens: 0 },
        }
      : {}),
  };
}

function fail(res: ServerResponse, fault: ImageFault): void {
  const { status } = fault;
  if (status === 429) {
    const body = openAiError(
      'Rate limit reached for images per minute. Please try again in 1s.',
      null,
      fault.code ?? 'rate_limit_exceeded',
      'requests',
    );
    return sendJson(res, 429, body, { 'retry-after': fault.retryAfter ?? '1' });
  }
  if (status === 400) {
    const message = 'Your request was rejected as a result of our safety system.';
    return sendJson(res, 400, openAiError(message, null, fault.code ?? 'moderation_blocked', 'image_generation_user_error'));
  }
  const message =
    status === 503
      ? 'The engine is currently overloaded, please try again later'
      : 'The server had an error while processing your request.';
  sendJson(res, status, openAiError(message, null, fault.code ?? null, status >= 500 ? 'server_error' : 'invalid_request_error'));
}

function invalid(res: ServerResponse, message: string, param: string | null): void {
  sendJson(res, 400, openAiError(message, param, null));
}

/** An OpenAI-style `{ error: {...} }` body. */
function openAiError(message: string, param: string | null, code: string | null, type = 'invalid_request_error') {
  return { error: { message, type, param, code } };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** How the provider echoes a wrong key: its first and last characters only. */
function mask(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-4)}`;
}
