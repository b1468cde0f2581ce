import { ApiError } from '../../http/errors';

/** An avatar_id that names no avatar of the account (missing or another account's); nothing is read. */
export function unknownAvatar(where: 'query' | 'body'): ApiError {
  const message = 'avatar_id does not name a customer avatar of this account';
  return new ApiError(400, 'invalid_reference', message, {
    details: { field: 'avatar_id' },
    errors: [{ path: `${where}.avatar_id`, message }],
  });
}

export const packErrorSpecs = {
  invalidAvatar: {
    status: 400,
    code: 'invalid_reference',
    description: 'avatar_id does not name a customer avatar of your account (`field` names it); nothing is read or written.',
  },
};
