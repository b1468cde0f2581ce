import type { Context, Next } from 'koa';
import { isTransientDbError } from '../db/errors';
import type { Logger } from '../logger';

/** A coded error a route can answer, listed in its OpenAPI entry. */
export interface ErrorSpec {
  status: number;
  code: string;
  description: string;
}

export interface ApiErrorExtra {
  upstreamStatus?: number;
  retryAfterSeconds?: number;
  /** Field-level problems of a validation failure. */
  errors?: Array<{ path: string; message: string }>;
  /** Extra machine-readable members merged into the body (e.g. `link_step`). */
  details?: Record<string, unknown>;
  /** Response headers the error carries (e.g. the rate-limit headers of a 429). */
  headers?: Record<string, string>;
  /** What failed underneath (e.g. a gRPC status and the server's words): logged with the request, never answered. */
  cause?: string;
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

/** When a client should try again after the database could not be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const databaseUnavailable = () =>
  new ApiError(503, 'database_unavailable', 'the database is unavailable right now; retry shortly', {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });

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

/** Whether a stored answer's body is a coded error body (errorBody's shape). */
export function isErrorBody(body: unknown): body is ErrorBody {
  const b = body as Partial<ErrorBody> | null;
  return typeof b === 'object' && b !== null && typeof b.code === 'string' && typeof b.message === 'string' && typeof b.status === 'number';
}

/**
 * The error an error body describes, to answer it again (an idempotent replay): the renderer then gives it the
 * request id of the request that answers it, never the one it was first answered with.
 */
export function apiErrorFromBody(body: ErrorBody, headers?: Record<string, string>): ApiError {
  const { code, message, status, upstreamStatus, retry_after_seconds, errors, request_id: _answeredWith, ...details } = body;
  return new ApiError(status, code, message, { upstreamStatus, retryAfterSeconds: retry_after_seconds, errors, details, headers });
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

/**
 * The coded error a thrown value answers as: an ApiError itself; a database that cannot be reached (or is shutting
 * down, out of connections, or gave up a deadlock) is 503 `database_unavailable` with Retry-After; Koa's HTTP errors
 * their code. Null for anything unexpected.
 */
export function asApiError(raw: unknown): ApiError | null {
  if (raw instanceof ApiError) return raw;
  // As thrown by the driver or the pool (never looked for in an error's cause: a failed fetch carries the same codes).
  if (isTransientDbError(raw)) return databaseUnavailable();
  return fromHttpError(raw);
}

/** Every 429 and 503 says when to try again: its error's own wait, else this many seconds. */
export const DEFAULT_RETRY_AFTER_SECONDS: Readonly<Record<number, number>> = { 429: 1, 503: 5 };

/** The Retry-After an error answers with, if any. */
export function retryAfterOf(err: ApiError): number | undefined {
  if (err.extra.retryAfterSeconds !== undefined) return err.extra.retryAfterSeconds;
  const own = Object.keys(err.extra.headers ?? {}).some((h) => h.toLowerCase() === 'retry-after');
  return own ? undefined : DEFAULT_RETRY_AFTER_SECONDS[err.status];
}

/** Renders a thrown error as the response: the coded body; anything unexpected is logged and answered as a bare 500 `internal`. */
export function errorRenderer(logger: Logger) {
  return function renderError(ctx: Context, raw: unknown): void {
    const err = asApiError(raw);
    const requestId = ctx.state.requestId as string | undefined;
    if (err?.code === 'database_unavailable' && !(raw instanceof ApiError)) {
      // Its code and class only: a driver's message may quote the statement.
      const e = raw as { code?: unknown; name?: unknown };
      logger.warn({ requestId, route: ctx._matchedRoute, method: ctx.method, dbError: e?.code ?? e?.name }, 'database unavailable');
    }
    if (err?.extra.cause) logger.warn({ requestId, route: ctx._matchedRoute, method: ctx.method, cause: err.extra.cause }, err.code);
    if (err) {
      ctx.status = err.status;
      ctx.body = errorBody(err, requestId);
      const retryAfter = retryAfterOf(err);
      if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
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
