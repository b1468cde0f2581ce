import type { Context, Next } from 'koa';
import type { Logger } from '../logger';

export interface ApiErrorExtra {
  upstreamStatus?: number;
  retryAfterSeconds?: number;
  /** Field-level problems of a validation failure. */
  errors?: Array<{ path: string; message: string }>;
  /** Extra machine-readable members merged into the body (e.g. `link_step`). */
  details?: Record<string, unknown>;
  /** Response headers the error carries (e.g. the rate-limit headers of a 429). */
  headers?: Record<string, string>;
}

/** The one error type: a status, a stable snake_case code callers branch on, and a message for people. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: ApiErrorExtra = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notFound = (what: string, code = 'not_found') => new ApiError(404, code, `${what} not found`);

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
  upstreamStatus?: number;
  retry_after_seconds?: number;
  errors?: Array<{ path: string; message: string }>;
  request_id?: string;
  [key: string]: unknown;
}

export function errorBody(err: ApiError, requestId?: string): ErrorBody {
  const body: ErrorBody = { ...err.extra.details, code: err.code, message: err.message, status: err.status };
  if (err.extra.upstreamStatus !== undefined) body.upstreamStatus = err.extra.upstreamStatus;
  if (err.extra.retryAfterSeconds !== undefined) body.retry_after_seconds = err.extra.retryAfterSeconds;
  if (err.extra.errors) body.errors = err.extra.errors;
  if (requestId) body.request_id = requestId;
  return body;
}

/** Maps errors that Koa and its helpers raise (ctx.throw, http-errors) onto coded ApiErrors. */
function fromHttpError(raw: unknown): ApiError | null {
  if (!raw || typeof raw !== 'object') return null;
  const err = raw as { status?: number; statusCode?: number; expose?: boolean; message?: string };
  const status = err.status ?? err.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  const code =
    {
      400: 'bad_request',
      401: 'unauthorized',
      403: 'forbidden',
      404: 'not_found',
      405: 'method_not_allowed',
      413: 'payload_too_large',
      415: 'unsupported_media_type',
    }[status] ?? 'bad_request';
  return new ApiError(status, code, err.expose && err.message ? err.message : code.replace(/_/g, ' '));
}

/** Renders a thrown error as the response: the coded body; anything unexpected is logged and answered as a bare 500 `internal`. */
export function errorRenderer(logger: Logger) {
  return function renderError(ctx: Context, raw: unknown): void {
    const err = raw instanceof ApiError ? raw : fromHttpError(raw);
    const requestId = ctx.state.requestId as string | undefined;
    if (err) {
      ctx.status = err.status;
      ctx.body = errorBody(err, requestId);
      if (err.extra.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
      if (err.extra.headers) ctx.set(err.extra.headers);
      return;
    }
    logger.error({ err: raw, requestId, route: ctx._matchedRoute, method: ctx.method }, 'unhandled error');
    ctx.status = 500;
    ctx.body = errorBody(new ApiError(500, 'internal', 'internal error'), requestId);
  };
}

/** The error renderer as a middleware, for apps that mount routes without the API's request envelope. */
export function errorMiddleware(logger: Logger) {
  const renderError = errorRenderer(logger);
  return async function renderErrors(ctx: Context, next: Next) {
    try {
      await next();
    } catch (raw) {
      renderError(ctx, raw);
    }
  };
}
