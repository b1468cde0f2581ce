// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const listUsersDescription =
  'Any role may list. Paged: `page` (default 1), `limit` (default 25, at most 100); an unknown query parameter is 400.';

export const createUserDescription =
  'Owner or admin only. Grants `admin` or `member`. Answers the user and a first session token for them, ' +
  'shown once; hand it to the user over a safe channel. An email already in the account is 409 `user_email_taken`.';

export const createUserResponsesR201Description = 'User created; `session_token` is shown only in this response';

export const deleteSessionSummary = 'Sign out: revoke the session token of this request.';

export const deleteSessionDescription =
  'The token answers 401 `invalid_credentials` from the next request on. Other sessions of the user stay valid.';

export const listAgentKeysDescription =
  'Never returns a token: `token_hint` (its last 4 characters) tells keys apart. ' +
  'Paged: `page` (default 1), `limit` (default 25, at most 100); an unknown query parameter is 400.';

export const createAgentKeyDescription =
  'Answers the key and its `token`, shown once; only a hash is stored and a lost token cannot be recovered ' +
  '(revoke the key and create another). An unknown permission is 400 `validation_failed` naming it. ' +
  'Send `Idempotency-Key` to make retries safe: a retry within 24 hours replays this response, token included.';

export const createAgentKeyResponsesR201Description = 'Key created; `token` is shown only in this response (and its idempotent replays)';

export const revokeAgentKeyDescription =
  'The key answers 401 from the next request on. Revoking again is harmless and keeps the first `revoked_at`. ' +
  'The key stays listed, with `revoked_at` set.';

export const getAgentMeSummary = 'The agent key of this request: its account, permissions and read-only flag.';

export const getAgentMeDescription = 'Needs no permission; a quick way for a client to check its key.';
