import { ApiError } from '../../http/errors';

export const avatarNotFound = () => new ApiError(404, 'avatar_not_found', 'customer avatar not found');
export const journeyNotFound = () => new ApiError(404, 'journey_not_found', 'customer journey not found');
export const gridNotFound = () => new ApiError(404, 'grid_not_found', 'before/after grid not found');

/** A rule that spans several fields of a body (e.g. unique stage names), reported like a field failure. */
export function invalidField(path: string, message: string): ApiError {
  return new ApiError(400, 'validation_failed', `invalid request: ${path}: ${message}`, { errors: [{ path, message }] });
}

/** A row id in a body that names no row of this object: nothing is written. */
export function invalidRowReference(field: string, what: string): ApiError {
  const message = `${field} does not name a ${what} of this grid`;
  return new ApiError(400, 'invalid_reference', message, { details: { field }, errors: [{ path: `body.${field}`, message }] });
}
