import { isGrpcServiceError } from '@temporalio/client';

// gRPC status code names (grpc-js is not a direct dependency).
const GRPC_STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

export function grpcStatusName(code: number): string {
  return GRPC_STATUS_NAMES[code] ?? `status ${code}`;
}

/** How many causes deep the text goes; chains are short, this only bounds a cycle. */
const MAX_DEPTH = 5;

function partOf(err: Error): string {
  // A gRPC error's message repeats its code number; its details are the server's own words.
  if (isGrpcServiceError(err)) return `${grpcStatusName(err.code)}: ${err.details || err.message}`;
  return err.message;
}

/**
 * An error with every cause under it, each gRPC error by its status name and the server's details, e.g.
 * `Failed to create schedule (cause: INVALID_ARGUMENT: Namespace default has no mapping defined for search attribute
 * AccountId)`. The SDK's ServiceError, WorkflowFailedError and schedule errors keep the reason only in `cause`.
 * Request metadata (where an API key would travel) is never read.
 */
export function temporalErrorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts = [partOf(err)];
  let cause: unknown = err.cause;
  for (let depth = 0; cause instanceof Error && depth < MAX_DEPTH; depth++, cause = cause.cause) {
    const part = partOf(cause);
    if (part && !parts.includes(part)) parts.push(part);
  }
  return parts.length === 1 ? parts[0] : `${parts[0]} (cause: ${parts.slice(1).join('; cause: ')})`;
}
