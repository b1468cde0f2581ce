import { createHash, randomUUID } from 'node:crypto';

/**
 * A job kind: lowercase letters, digits, `_` and `-` (schedule names such as `idempotency-key-purge` are kinds too).
 * Also the `JobKind` search attribute and the `kind` filter of `GET /api/jobs`.
 */
export const JOB_KIND_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;

/** Keys kept readable in the id; any other key is replaced by its hash (`~` never appears in a kept key). */
const READABLE_KEY = /^[A-Za-z0-9._:@+=-]{1,200}$/;

/** Longest id a Temporal cluster takes (`limit.maxIDLength`, 255 by default and in deploy/temporal/dynamicconfig.yaml). */
export const MAX_JOB_ID = 255;

/** Longest workflow id the API accepts in a path (a dev server's own limit is 1,000 bytes). */
const MAX_WORKFLOW_ID = 1000;

export function isJobKind(value: string): boolean {
  return JOB_KIND_PATTERN.test(value);
}

/** `~` and 32 base64url characters of the part's SHA-256 (192 bits): the same part is the same digest. */
function hashedIdPart(part: string): string {
  return `~${createHash('sha256').update(part).digest('base64url').slice(0, 32)}`;
}

/**
 * `<kind>:<accountId>:<key>`: readable in the Temporal UI, and deterministic when the caller gives a key
 * (an Idempotency-Key, a content id …), so a retried request lands on the same workflow id. Without a key
 * the id is unique (a random UUID). A key that is not plain text, or that would take the id past MAX_JOB_ID, is
 * replaced by its hash; a key that fits stays as it is, so the ids of short keys never change.
 */
export function jobId(kind: string, accountId: string, key: string = randomUUID()): string {
  if (!isJobKind(kind)) throw new TypeError(`not a job kind: ${kind}`);
  const readable = `${kind}:${accountId}:${key}`;
  if (READABLE_KEY.test(key) && readable.length <= MAX_JOB_ID) return readable;
  return `${kind}:${accountId}:${hashedIdPart(key)}`;
}

/**
 * An entity workflow's id `<kind>:<accountId>:<entity>` (one workflow per site, shop …): the entity as it is while the
 * id fits MAX_JOB_ID, its hash beyond, so an entity id from a platform never makes an id the server refuses.
 */
export function entityJobId(kind: string, accountId: string, entity: string): string {
  const readable = `${kind}:${accountId}:${entity}`;
  return readable.length <= MAX_JOB_ID ? readable : `${kind}:${accountId}:${hashedIdPart(entity)}`;
}

/** Whether a path segment can name a workflow at all; anything else is answered 404 without asking Temporal. */
export function isPlausibleWorkflowId(value: string): boolean {
  return value.length > 0 && value.length <= MAX_WORKFLOW_ID && /^[\x21-\x7e]+$/.test(value);
}

/** The API path of a job; `:` stays readable, everything else that needs it is escaped. */
export function jobPath(id: string, base = '/api/jobs'): string {
  return `${base}/${encodeURIComponent(id).replace(/%3A/gi, ':')}`;
}
