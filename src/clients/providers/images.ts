import { z } from 'zod';
import type { Config } from '../../config';
import { ProviderError, retryAfterSeconds } from './errors';
import {
  checkGeneratedImage,
  MAX_GENERATED_IMAGE_BYTES,
  MAX_GENERATED_IMAGE_PIXELS,
  type GeneratedMimeType,
  type ImageLimits,
} from './imageBytes';
import { callJson } from './jsonCall';
import { multipartBody, type MultipartPart } from './multipart';

export { MAX_GENERATED_IMAGE_BYTES, MAX_GENERATED_IMAGE_PIXELS, type GeneratedMimeType } from './imageBytes';

/** The sizes of the GPT image models; dall-e-2/3 take their own (e.g. 1792x1024), passed through as given. */
export type ImageSize = '1024x1024' | '1536x1024' | '1024x1536' | 'auto' | `${number}x${number}`;

export interface ReferenceImage {
  bytes: Buffer;
  mimeType: GeneratedMimeType;
}

export interface ImageRequest {
  prompt: string;
  /** Default 1024x1024. */
  size?: ImageSize;
  /** Sent: `/images/edits` (multipart) with every reference as an `image[]` part. Absent or empty: `/images/generations`. */
  references?: ReferenceImage[];
  /** GPT image models only (`output_format`); the provider's default is png. */
  outputFormat?: 'png' | 'jpeg' | 'webp';
  signal?: AbortSignal;
}

export interface GeneratedImage {
  bytes: Buffer;
  /** Read from the bytes, never from what the provider declares. */
  mimeType: GeneratedMimeType;
  width: number;
  height: number;
  /** The prompt the model actually used, when it rewrote it (dall-e-3); else null. */
  revisedPrompt: string | null;
}

export interface ImageClient {
  readonly model: string;
  /** One image for `request.prompt`. Throws a coded ProviderError (provider `image`); `retryable` says if another try may help. */
  generate(request: ImageRequest): Promise<GeneratedImage>;
}

const WHAT = 'the image API';
/** The edits endpoint's documented bounds for GPT image models: up to 16 input images of at most 50 MB each. */
const MAX_REFERENCES = 16;
const MAX_REFERENCE_BYTES = 50 * 1024 * 1024;
const REFERENCE_EXTENSION: Record<GeneratedMimeType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

const imagesSchema = z.object({
  created: z.number().optional(),
  data: z.array(z.object({ b64_json: z.string().nullable().optional(), revised_prompt: z.string().nullable().optional() })).min(1),
});

/**
 * A client of an OpenAI-compatible Images API with a Bearer key; null when IMAGE_API_KEY is unset. Without
 * references it POSTs JSON to `<IMAGE_API_URL>/images/generations`; with them, multipart to `/images/edits`. It asks
 * for base64 answers (GPT image models give nothing else; dall-e models are asked `response_format: b64_json`),
 * checks the decoded bytes are a PNG, JPEG or WebP within 25 MB and 32 megapixels (the media library's import limits),
 * and does not retry: callers (Temporal activities) retry errors marked retryable.
 */
export function createImageClient(
  config: Pick<Config, 'IMAGE_API_URL' | 'IMAGE_API_KEY' | 'IMAGE_MODEL' | 'IMAGE_TIMEOUT_MS'>,
  limits: ImageLimits = { maxBytes: MAX_GENERATED_IMAGE_BYTES, maxPixels: MAX_GENERATED_IMAGE_PIXELS },
): ImageClient | null {
  const key = config.IMAGE_API_KEY;
  if (!key) return null;
  const base = config.IMAGE_API_URL.replace(/\/+$/, '');
  const model = config.IMAGE_MODEL;
  const gptImage = isGptImageModel(model);
  // base64 is 4/3 of the bytes; the slack covers the JSON around it (and a revised prompt).
  const maxAnswerBytes = Math.ceil(limits.maxBytes / 3) * 4 + 1024 * 1024;
  return {
    model,
    async generate(request) {
      const size = request.size ?? '1024x1024';
      const format: Record<string, string> = gptImage && request.outputFormat ? { output_format: request.outputFormat } : {};
      const references = request.references ?? [];
      let endpoint: string;
      let body: string | Buffer;
      let contentType: string;
      if (references.length === 0) {
        endpoint = `${base}/images/generations`;
        contentType = 'application/json';
        body = JSON.stringify({
          model,
          prompt: request.prompt,
          n: 1,
          size,
          ...format,
          ...(gptImage ? {} : { response_format: 'b64_json' }),
        });
      } else {
        checkReferences(references);
        endpoint = `${base}/images/edits`;
        const fields: Record<string, string> = { model, prompt: request.prompt, n: '1', size, ...format };
        if (!gptImage) fields.response_format = 'b64_json';
        const parts: MultipartPart[] = [
          ...Object.entries(fields).map(([name, value]) => ({ name, value })),
          ...references.map((ref, i) => ({
            name: 'image[]',
            filename: `reference-${i + 1}.${REFERENCE_EXTENSION[ref.mimeType]}`,
            contentType: ref.mimeType,
            bytes: ref.bytes,
          })),
        ];
        ({ body, contentType } = multipartBody(parts));
      }
      const answer = await callJson('image', WHAT, endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': contentType, accept: 'application/json' },
        body,
        timeoutMs: config.IMAGE_TIMEOUT_MS,
        maxBytes: maxAnswerBytes,
        signal: request.signal,
      });
      if (answer.status < 200 || answer.status > 299) throw imageStatusError(answer.status, answer.headers['retry-after'], answer.json);
      const parsed = imagesSchema.safeParse(answer.json);
      if (!parsed.success) throw badResponse('answered with a body that is not an images response', answer.status);
      const item = parsed.data.data[0];
      if (!item.b64_json) throw badResponse('answered without b64_json image data', answer.status);
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(item.b64_json)) throw badResponse('answered b64_json that is not base64', answer.status);
      // Checked on the encoded length first, so an oversized answer is never decoded into a second buffer.
      if (Math.floor((item.b64_json.length * 3) / 4) - 2 > limits.maxBytes) {
        throw new ProviderError(
          'image',
          'image_too_large',
          `${WHAT} answered an image over ${limits.maxBytes} bytes`,
          false,
          answer.status,
        );
      }
      const bytes = Buffer.from(item.b64_json, 'base64');
      const checked = await checkGeneratedImage(bytes, limits);
      return { bytes, ...checked, revisedPrompt: item.revised_prompt ?? null };
    },
  };
}

/** `gpt-image-1`, `gpt-image-1-mini`, `gpt-image-1.5` …: base64 answers only, `output_format`, no `response_format`. */
export function isGptImageModel(model: string): boolean {
  return /^gpt-image/.test(model);
}

/**
 * The coded error of a non-2xx answer: 401/403 → image_provider_auth; 429 → image_rate_limited (retryable, with
 * Retry-After; not retryable when the account's quota is used up); 408 and 5xx → image_unavailable (retryable); any
 * other 4xx (a refused prompt, a size the model does not take, a moderation block) → image_request_rejected; the rest
 * → image_bad_response. The provider's short `error.code` rides along as `upstreamCode`; its message never does.
 */
export function imageStatusError(status: number, retryAfter: string | string[] | undefined, json: unknown): ProviderError {
  const rawCode = (json as { error?: { code?: unknown } } | undefined)?.error?.code;
  const upstreamCode = typeof rawCode === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(rawCode) ? rawCode : undefined;
  const err = statusToError(status, retryAfter, upstreamCode);
  if (upstreamCode) err.upstreamCode = upstreamCode;
  return err;
}

function statusToError(status: number, retryAfter: string | string[] | undefined, upstreamCode: string | undefined): ProviderError {
  const suffix = upstreamCode ? ` (${upstreamCode})` : '';
  if (status === 401 || status === 403) {
    return new ProviderError('image', 'image_provider_auth', `${WHAT} rejected the configured API key (${status})`, false, status);
  }
  if (status === 429) {
    if (upstreamCode === 'insufficient_quota') {
      return new ProviderError('image', 'image_rate_limited', `${WHAT} refused the call: the account's quota is used up`, false, status);
    }
    const seconds = retryAfterSeconds(retryAfter);
    const err = new ProviderError(
      'image',
      'image_rate_limited',
      `${WHAT} rate-limited the call${seconds === undefined ? '' : `; retry after ${seconds}s`}`,
      true,
      status,
    );
    err.retryAfterSeconds = seconds;
    return err;
  }
  if (status === 408 || status >= 500) {
    return new ProviderError('image', 'image_unavailable', `${WHAT} failed with ${status}${suffix}`, true, status);
  }
  if (status >= 400) {
    return new ProviderError('image', 'image_request_rejected', `${WHAT} refused the request with ${status}${suffix}`, false, status);
  }
  return badResponse(`answered with status ${status}`, status);
}

function checkReferences(references: ReferenceImage[]): void {
  const reject = (what: string) => new ProviderError('image', 'image_request_rejected', `reference images: ${what}`, false);
  if (references.length > MAX_REFERENCES) throw reject(`${references.length} given, at most ${MAX_REFERENCES} are sent`);
  for (const ref of references) {
    if (!(ref.mimeType in REFERENCE_EXTENSION)) throw reject(`${String(ref.mimeType).slice(0, 40)} is not PNG, JPEG or WebP`);
    if (ref.bytes.length > MAX_REFERENCE_BYTES) throw reject(`one is over ${MAX_REFERENCE_BYTES} bytes`);
  }
}

const badResponse = (what: string, status: number) => new ProviderError('image', 'image_bad_response', `${WHAT} ${what}`, false, status);
