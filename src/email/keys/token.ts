import { newCredential, parseCredential } from '../../auth/secrets';

export type EmailEnvironment = 'test' | 'live';

/** `svc_test_` / `svc_live_`: the environment is readable in a leaked key and known before any lookup. */
export const EMAIL_KEY_PREFIX: Record<EmailEnvironment, string> = { test: 'svc_test_', live: 'svc_live_' };

/** A new key: `svc_<env>_` + its row id (32 hex, for a primary-key lookup) + 32 random bytes base64url. */
export function newEmailKeyToken(environment: EmailEnvironment): { id: string; secret: string; token: string } {
  return newCredential(EMAIL_KEY_PREFIX[environment]);
}

/** The id, secret and environment of a well-formed key; null for anything else. */
export function parseEmailKeyToken(token: string): { id: string; secret: string; environment: EmailEnvironment } | null {
  const environment: EmailEnvironment | null = token.startsWith(EMAIL_KEY_PREFIX.live)
    ? 'live'
    : token.startsWith(EMAIL_KEY_PREFIX.test)
      ? 'test'
      : null;
  if (!environment) return null;
  const parsed = parseCredential(EMAIL_KEY_PREFIX[environment], token);
  return parsed ? { ...parsed, environment } : null;
}

/** What lists show instead of the secret: `svc_live_…AbCd`. */
export function displayOf(environment: EmailEnvironment, last4: string): string {
  return `${EMAIL_KEY_PREFIX[environment]}…${last4}`;
}
