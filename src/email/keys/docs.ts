// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const invalidReferenceError = 'An `allowed_domains` entry is not a sender domain of the account; nothing is written.';

export const listEmailKeysDescription =
  'Never a secret: `display` shows the prefix and last 4 characters. Paged: `{ data, total, page, limit }`.';

export const getEmailKeyDescription =
  '`usage`: last use, sends (lifetime and the last 30 UTC days, test sends included), rate-limit hits and failed ' +
  'authentication attempts. Replicas write usage about once a second; this replica adds what it has not written yet.';

export const revokeEmailKeyDescription =
  'From now on the key answers 401 `api_key_revoked` on every replica, including requests in flight that have ' +
  'not yet handed their message over. Revoking again answers the key unchanged (the first `revoked_at` stays).';

export const emailKeyRevokedError = 'The key is already revoked; create a new key instead.';

export const LIMITS =
  'Limits: `rate_per_second` is an exact sliding window (at most that many admissions in any one-second window), ' +
  'kept in memory by each API replica. With `EMAIL_RATE_REPLICAS` = N, each replica admits ⌊rate_per_second / N⌋ ' +
  '(at least 1) per second: its documented per-replica share, so N replicas together never exceed the limit. ' +
  'It applies to test and live keys alike (429 `rate_limit_exceeded` with `Retry-After` and `RateLimit-*` headers). ' +
  '`daily_cap` counts live sends only (a test key uses no quota) per UTC day, exactly across replicas with a shared ' +
  'Postgres counter (429 `daily_quota_exceeded`, `Retry-After` until UTC midnight).';

export const SECRET_ONCE =
  'The `secret` (`svc_test_…` or `svc_live_…`) appears in this response only; only an HMAC of it is stored ' +
  'and it cannot be recovered (a lost key is revoked and replaced). Send `Idempotency-Key` to make a retry safe: ' +
  'within 24 hours it replays this response, secret included.';

export const updateEmailKeyDescription =
  `Only the fields sent change; \`daily_cap\`, \`allowed_domains\` and \`allowed_ips\` take null to remove them. ` +
  `Every replica applies the change at once (Postgres NOTIFY; a 60-second cache bound otherwise).\n\n${LIMITS}`;

export const rotateEmailKeyDescription =
  'Creates a key with the same name, environment, scopes, limits and allowlists (`rotated_from_key_id` names the ' +
  'old one) and revokes the old key at once, with no grace period: deploy the new secret before rotating if ' +
  `downtime matters, or create a second key and revoke the first later. ${SECRET_ONCE}`;
