import { ApplicationFailure } from '@temporalio/common';
import { ApiError } from '../http/errors';
import { ProviderError } from '../clients/providers/errors';
import type { CodedFailureDetails } from './codedFailure';

/**
 * Whether another attempt may succeed, by the outcome behind the error: the platform's own status when the error
 * carries one (a 502 `commerce_unauthorized` is the shop's 401), else the error's status. 408, 429 and 5xx pass;
 * any other 4xx repeats itself; an outcome below 400 (a malformed 2xx answer) is treated as the platform's fault.
 */
function retryableOutcome(status: number): boolean {
  return status < 400 || status >= 500 || status === 408 || status === 429;
}

/**
 * The service's own setup is wrong (a key or URL not set, a stored secret the configured keys cannot open, a
 * client built with bad options, a 501): a 5xx, but the same on every attempt until an operator acts.
 */
const SETUP_CODE = /_(not_configured|misconfigured|unreadable)$/;
const fixedBySetupOnly = (err: ApiError) => err.status === 501 || SETUP_CODE.test(err.code);

function failure(
  type: string,
  message: string,
  retryable: boolean,
  retryAfterSeconds: number | undefined,
  details?: unknown[],
): ApplicationFailure {
  return ApplicationFailure.create({
    type,
    message,
    nonRetryable: !retryable,
    details,
    ...(retryAfterSeconds ? { nextRetryDelay: `${retryAfterSeconds} seconds` } : {}),
  });
}

/** What a coded ApiError carries besides its code and message, as the failure's first detail (failures.ts reads it back). */
export function codedDetailsOf(err: ApiError): CodedFailureDetails {
  const { upstreamStatus, retryAfterSeconds, errors, details } = err.extra;
  return {
    status: err.status,
    ...(upstreamStatus !== undefined ? { upstreamStatus } : {}),
    ...(retryAfterSeconds !== undefined ? { retry_after_seconds: retryAfterSeconds } : {}),
    ...(errors ? { errors } : {}),
    ...(details ? { details } : {}),
  };
}

/**
 * What an activity throws in place of `err`: a coded ApiError or provider error becomes an ApplicationFailure whose
 * `type` is its code (a coded ApiError's `details[0]` is its HTTP status and the rest of its coded body:
 * `codedDetailsOf`), retryable for 5xx, timeouts and rate limits (with the platform's Retry-After as the next
 * delay), non-retryable for other 4xx-like outcomes and for the service's own setup errors.
 * Anything else comes back unchanged, so Temporal retries it.
 */
export function toActivityFailure(err: unknown): unknown {
  if (err instanceof ApiError) {
    const outcome = err.extra.upstreamStatus ?? err.status;
    const retryable = !fixedBySetupOnly(err) && retryableOutcome(outcome);
    return failure(err.code, err.message, retryable, err.extra.retryAfterSeconds, [codedDetailsOf(err)]);
  }
  if (err instanceof ProviderError) return failure(err.code, err.message, err.retryable, err.retryAfterSeconds);
  return err;
}

type ActivityFunctions = Record<string, (...args: never[]) => unknown>;

/** The same activities, each throwing `toActivityFailure` of what it throws: applied once where the worker's activities are built. */
export function withFailureMapping<T extends ActivityFunctions>(activities: T): T {
  const mapped: Record<string, unknown> = {};
  for (const [name, activity] of Object.entries(activities)) {
    mapped[name] = async (...args: never[]) => {
      try {
        return await activity(...args);
      } catch (err) {
        throw toActivityFailure(err);
      }
    };
  }
  return mapped as T;
}
