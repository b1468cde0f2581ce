import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from './errors';

const EMPTY = Buffer.alloc(0);

/** Reads every request body once, byte for byte (webhook signatures need the exact bytes), up to the limit. */
export function captureRawBody(limitBytes: number) {
  return async function rawBody(ctx: Context, next: Next) {
    ctx.state.rawBody = EMPTY;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      try {
        ctx.state.rawBody = await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: limitBytes });
      } catch (err) {
        const e = err as { type?: string; status?: number };
        if (e.type === 'entity.too.large') {
          throw new ApiError(413, 'payload_too_large', `request body exceeds ${limitBytes} bytes`);
        }
        throw new ApiError(400, 'invalid_body', 'the request body could not be read');
      }
    }
    await next();
  };
}

/** JSON body of a route: empty is `{}`, anything but JSON is 415, malformed JSON is 400. */
export function parseJsonBody(ctx: Context, raw: Buffer): unknown {
  if (raw.length === 0) return {};
  if (!ctx.is('application/json', 'application/*+json')) {
    throw new ApiError(415, 'unsupported_media_type', 'send the body as application/json');
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'invalid_json', 'the request body is not valid JSON');
  }
}
