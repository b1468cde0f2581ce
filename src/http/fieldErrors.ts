import { ApiError } from './errors';

/** An id in a body that names nothing in the caller's account (missing, or another account's): nothing is written. */
export function invalidReference(field: string, what: string): ApiError {
  const message = `${field} does not name a ${what} of this account`;
  return new ApiError(400, 'invalid_reference', message, { details: { field }, errors: [{ path: `body.${field}`, message }] });
}

/** A rule on the merged state of a record (e.g. name or email after a PATCH), reported like a field failure. */
export function invalidField(path: string, message: string): ApiError {
  return new ApiError(400, 'validation_failed', `invalid request: ${path}: ${message}`, { errors: [{ path, message }] });
}
