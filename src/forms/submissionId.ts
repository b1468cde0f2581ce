import { createHash } from 'node:crypto';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * The platform submission id of a `form_submission` delivery or a backfilled submission (doc2 Events "Form submission
 * handling" 1): `payload.id`, unless it equals `payload.formElementId` (the id of the form element, not of this
 * submission); then the hex SHA-256 of `<name>\n<submittedAt>`. Undefined when neither can be had (no usable id, and
 * no form name or no submission time): the submission is then permanent, reported and never retried.
 */
export function submissionIdOf(payload: Record<string, unknown>): string | undefined {
  const id = text(payload.id);
  if (id !== undefined && id !== text(payload.formElementId)) return id;
  return derivedSubmissionIdOf(payload);
}

/** The id the rule derives from the form name and submission time (hex SHA-256 of `<name>\n<submittedAt>`), if both are there. */
export function derivedSubmissionIdOf(payload: Record<string, unknown>): string | undefined {
  const name = text(payload.name);
  const submittedAt = text(payload.submittedAt);
  if (name === undefined || submittedAt === undefined) return undefined;
  return createHash('sha256').update(`${name}\n${submittedAt}`).digest('hex');
}

/** True when the submission id had to be derived: the payload carried no id of its own (none, or the form element's). */
export function isDerivedSubmissionId(payload: Record<string, unknown>): boolean {
  const id = text(payload.id);
  return id === undefined || id === text(payload.formElementId);
}

/** The ledger's idempotency key of a platform submission: one row per account and submission, however often it arrives. */
export const platformIdempotencyKey = (accountId: string, submissionId: string) => `platform:${accountId}:${submissionId}`;
