import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from './errors';
import { assertJsonDepth } from './jsonDepth';

export const NO_BODY = Buffer.alloc(0);

/** GET and HEAD requests carry no body we read. */
export const hasNoBody = (ctx: Context) => ctx.method === 'GET' || ctx.method === 'HEAD';

/**
 * Reads a route's request body once, byte for byte (webhook signatures need the exact bytes), up to the route's
 * limit. It runs after authentication, so an unauthenticated caller never makes the server read a large body.
 */
export async function readRawBody(ctx: Context, limitBytes: number): Promise<Buffer> {
  if (hasNoBody(ctx)) return NO_BODY;
  try {
    return await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: limitBytes });
  } catch (err) {
    const e = err as { type?: string };
    if (e.type === 'entity.too.large') {
      throw new ApiError(413, 'payload_too_large', `request body exceeds ${limitBytes} bytes`);
    }
    throw new ApiError(400, 'invalid_body', 'the request body could not be read');
  }
}

// What clients send nearly always: compared as is, before content-type parsing and media-type matching.
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

const isJson = (ctx: Context) => PLAIN_JSON.has(ctx.get('content-type')) || Boolean(ctx.is('application/json', 'application/*+json'));

/** JSON body of a route: empty is `{}`, anything but JSON is 415, nested past the bound or malformed is 400. */
export function parseJsonBody(ctx: Context, raw: Buffer): unknown {
  if (raw.length === 0) return {};
  if (!isJson(ctx)) {
    throw new ApiError(415, 'unsupported_media_type', 'send the body as application/json');
  }
  assertJsonDepth(raw);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'invalid_json', 'the request body is not valid JSON');
  }
}
