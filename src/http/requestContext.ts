import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../logger';
import type { Metrics } from './metrics';
import { nameServerSpan } from '../telemetry/tracingState';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/** X-Request-Id in and out: a well-formed incoming id is kept, anything else is replaced. */
export function requestId() {
  return async function assignRequestId(ctx: Context, next: Next) {
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}

/** One log line and one histogram sample per request, by matched route (never the raw path, which carries ids). */
export function accessLog(logger: Logger, metrics: Metrics) {
  return async function logRequest(ctx: Context, next: Next) {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx._matchedRoute as string | undefined) ?? 'unmatched';
      nameServerSpan(ctx.method, route);
      metrics.httpDuration.observe({ method: ctx.method, route, status: String(ctx.status) }, seconds);
      logger.info(
        { requestId: ctx.state.requestId, method: ctx.method, route, status: ctx.status, ms: Math.round(seconds * 1000), ip: ctx.ip },
        'request',
      );
    }
  };
}
