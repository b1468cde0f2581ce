import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Logger } from '../logger';
import type { Metrics } from './metrics';
import { nameServerSpan } from '../telemetry/tracingState';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/** X-Request-Id in and out: a well-formed incoming id is kept, anything else is replaced. */
export function assignRequestId(ctx: Context): void {
  const incoming = ctx.get('x-request-id');
  ctx.state.requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
}

/**
 * One log line and one histogram sample per request, by matched route (never the raw path, which carries ids). The
 * histogram's child per method, route and status is kept, so a request hashes no label set (routes × statuses bound it).
 */
export function requestRecorder(logger: Logger, metrics: Metrics) {
  const samplers = new Map<string, { observe(seconds: number): void }>();
  return function recordRequest(ctx: Context, startedNs: bigint): void {
    const seconds = Number(process.hrtime.bigint() - startedNs) / 1e9;
    const route = (ctx._matchedRoute as string | undefined) ?? 'unmatched';
    nameServerSpan(ctx.method, route);
    const key = `${ctx.method} ${route} ${ctx.status}`;
    let sampler = samplers.get(key);
    if (!sampler) {
      sampler = metrics.httpDuration.labels({ method: ctx.method, route, status: String(ctx.status) });
      samplers.set(key, sampler);
    }
    sampler.observe(seconds);
    if (logger.isLevelEnabled('info')) {
      logger.info(
        { requestId: ctx.state.requestId, method: ctx.method, route, status: ctx.status, ms: Math.round(seconds * 1000), ip: ctx.ip },
        'request',
      );
    }
  };
}
