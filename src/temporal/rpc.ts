import { isGrpcDeadlineError, isGrpcServiceError, type Client } from '@temporalio/client';
import { ApiError } from '../http/errors';
import { temporalErrorText } from './errorText';

/** Default bound of one request to Temporal made while an HTTP request waits. */
export const TEMPORAL_CALL_MS = 10_000;

// gRPC status codes (grpc-js is not a direct dependency): DEADLINE_EXCEEDED 4, RESOURCE_EXHAUSTED 8, UNAVAILABLE 14.
const UNAVAILABLE_CODES = new Set<number>([4, 8, 14]);

export function isUnavailable(err: unknown): boolean {
  if (isGrpcDeadlineError(err)) return true;
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (isGrpcServiceError(e) && UNAVAILABLE_CODES.has(e.code)) return true;
  }
  return false;
}

/** 503 `temporal_unavailable`; `cause`, the error Temporal gave, goes to the log with its gRPC status (never to the client). */
export function temporalUnavailable(cause?: unknown): ApiError {
  return new ApiError(503, 'temporal_unavailable', 'the job engine did not answer in time; retry shortly', {
    retryAfterSeconds: 2,
    cause: cause === undefined ? undefined : temporalErrorText(cause),
  });
}

/**
 * Runs Temporal requests under an explicit deadline (the SDK sets none), so no HTTP request waits forever;
 * an unreachable or slow server becomes 503 `temporal_unavailable` with Retry-After.
 */
export async function withTemporal<T>(client: Client, fn: () => Promise<T>, ms = TEMPORAL_CALL_MS): Promise<T> {
  try {
    return await client.withDeadline(Date.now() + ms, fn);
  } catch (err) {
    if (isUnavailable(err)) throw temporalUnavailable(err);
    throw err;
  }
}
