import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import getRawBody from 'raw-body';

/**
 * A bare JSON handler in place of POST /v1/email/send: reads the body (1 MiB limit), parses the JSON and answers an
 * id. No key lookup, no scope, no validation, no limiter, no domain check, no usage.
 */
export function emailSendBaseline(): Middleware {
  return async (ctx) => {
    const raw = await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: 1024 * 1024 });
    const message = JSON.parse(raw.toString('utf8')) as { from?: string; to?: unknown };
    ctx.status = 200;
    ctx.body = { id: randomUUID(), from: message.from, to: message.to };
  };
}
