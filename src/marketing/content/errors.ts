import { ApiError } from '../../http/errors';

export const contentNotFound = () => new ApiError(404, 'content_not_found', 'content item not found');

/** An id in a body that names nothing in the caller's account (missing, or another account's): nothing is written. */
export function invalidReference(field: string, what: string): ApiError {
  const message = `${field} does not name a ${what} of this account`;
  return new ApiError(400, 'invalid_reference', message, { details: { field }, errors: [{ path: `body.${field}`, message }] });
}

/** OpenAPI entries of the coded errors the content routes answer. */
export const errorSpecs = {
  notFound: { status: 404, code: 'content_not_found', description: 'No content item with this id in your account (also for a malformed id).' },
  invalidReference: { status: 400, code: 'invalid_reference', description: 'avatar_id, journey_id, before_after_grid_id or category_id does not name a record of your account (`field` names it); nothing is written.' },
  notLinked: { status: 409, code: 'not_linked', description: 'A schedule request for an item with no cms_link; `link_step` names the step to take first. Nothing is written.' },
};
