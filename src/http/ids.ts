import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a uuid names nothing: callers answer it like a missing row (404), never a Postgres error. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Path parameters of `/…/{id}` routes. Any string is accepted here so a malformed id answers 404, like a missing one. */
/** A UUID's 16 bytes (tokens carry ids compactly); a non-UUID is a programming error of the caller. */
export function uuidToBytes(id: string): Buffer {
  if (!UUID.test(id)) throw new TypeError('not a uuid');
  return Buffer.from(id.replace(/-/g, ''), 'hex');
}

/** The UUID of 16 bytes, lower case with dashes. */
export function uuidFromBytes(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const idParams = z.strictObject({
  id: z.string().describe('Identifier (uuid). A malformed or unknown id, or one of another account, answers 404.'),
});

/** An id sent in a body or query (contactId, stageId, assignedTo …): a malformed one is 400 `validation_failed`. */
export const refId = () => z.guid({ error: 'must be a uuid' });
