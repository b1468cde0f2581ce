import { createHash, randomUUID } from 'node:crypto';

/**
 * A job kind: lowercase letters, digits, `_` and `-` (schedule names such as `idempotency-key-purge` are kinds too).
 * Also the `JobKind` search attribute and the `kind` filter of `GET /api/jobs`.
 */
export const JOB_KIND_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;

/** Keys kept readable in the id; any other key is replaced by its hash (`~` never appears in a kept key). */
const READABLE_KEY = /^[A-Za-z0-9._:@+=-]{1,200}$/;

/** Longest workflow id the API accepts in a path (Temporal's own limit is 1,000 bytes). */
const MAX_WORKFLOW_ID = 1000;

export function isJobKind(value: string): boolean {
  return JOB_KIND_PATTERN.test(value);
}

/**
 * `<kind>:<accountId>:<key>`: readable in the Temporal UI, and deterministic when the caller gives a key
 * (an Idempotency-Key, a content id …), so a retried request lands on the same workflow id. Without a key
 * the id is unique (a random UUID).
 */
export function jobId(kind: string, accountId: string, key: string = randomUUID()): string {
  if (!isJobKind(kind)) throw new TypeError(`not a job kind: ${kind}`);
  const keyPart = READABLE_KEY.test(key) ? key : `~${createHash('sha256').update(key).digest('base64url').slice(0, 32)}`;
  return `${kind}:${accountId}:${keyPart}`;
}

/** Whether a path segment can name a workflow at all; anything else is answered 404 without asking Temporal. */
export function isPlausibleWorkflowId(value: string): boolean {
  return value.length > 0 && value.length <= MAX_WORKFLOW_ID && /^[\x21-\x7e]+$/.test(value);
}

/** The API path of a job; `:` stays readable, everything else that needs it is escaped. */
export function jobPath(id: string, base = '/api/jobs'): string {
  return `${base}/${encodeURIComponent(id).replace(/%3A/gi, ':')}`;
}
