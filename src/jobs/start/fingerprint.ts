import { ApiError } from '../../http/errors';
import { requestHash } from '../../http/idempotency';
import { jobOptionsHashed, type JobStartOptions } from '../../temporal/jobs';

/** 409 `idempotency_key_reused`: the run under the key was started by another request; nothing runs. */
export const keyReused = () =>
  new ApiError(
    409,
    'idempotency_key_reused',
    'this Idempotency-Key was already used with another request (another route, item or body); send a new key',
  );

/**
 * The request's fingerprint, kept as the run's memo `requestHash`: its route (when the route is part of it), its own
 * parts (path ids, body fields) and its start options. Absent values hash as if never sent, so a request hashes the
 * same whatever optional fields the fingerprint learns to carry.
 */
export function requestFingerprint(request: { route?: string; options?: JobStartOptions }, parts: Record<string, unknown>): string {
  return requestHash({ route: request.route, ...parts, ...jobOptionsHashed(request.options) });
}

/** Refuses a request whose key names a run that another request started (its memo's hash is not this one). */
export function refuseOtherRequest(memo: Record<string, unknown> | undefined, hash: string): void {
  if (memo?.requestHash !== hash) throw keyReused();
}
