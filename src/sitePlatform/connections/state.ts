import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { deriveKey } from '../../crypto/aesGcm';
import { readSignedPayload, signPayload } from '../../crypto/signedPayload';

/** doc2 Limits: a connect must come back within five minutes. */
export const STATE_TTL_SECONDS = 5 * 60;

export const INTENTS = ['site_account_connect', 'site_project_connect', 'site_reconnect'] as const;
export type Intent = (typeof INTENTS)[number];

/** Which OAuth client the authorize URL named: one of the account's registered clients, or the service-wide one. */
export type ClientRef = { kind: 'account'; id: string } | { kind: 'service' };

const stateSchema = z.object({
  accountId: z.string(),
  intent: z.enum(INTENTS),
  client: z.union([z.object({ kind: z.literal('account'), id: z.string() }), z.object({ kind: z.literal('service') })]),
  projectId: z.string().optional(),
  siteId: z.string().optional(),
  connectionId: z.string().optional(),
  nonce: z.string(),
  /** Unix seconds. */
  expiresAt: z.number(),
});

export type OAuthState = z.infer<typeof stateSchema>;

/** Derived from SECRET_HASH_KEY for this one purpose, so it signs nothing else. */
export const stateKey = (secretHashKey: string): Buffer => deriveKey(secretHashKey, 'site-platform-oauth-state');

export function newState(fields: Omit<OAuthState, 'nonce' | 'expiresAt'>, now: number): OAuthState {
  return { ...fields, nonce: randomBytes(16).toString('hex'), expiresAt: Math.floor(now / 1000) + STATE_TTL_SECONDS };
}

/** `base64url(JSON).base64url(HMAC-SHA256)`: URL-safe, so it comes back through the platform unchanged. */
export function signState(key: Buffer, state: OAuthState): string {
  return signPayload(key, state);
}

/** The state when it carries our signature (constant-time check), else null. Expiry is the caller's check. */
export function readState(key: Buffer, token: string): OAuthState | null {
  const parsed = stateSchema.safeParse(readSignedPayload(key, token));
  return parsed.success ? parsed.data : null;
}

export const isExpired = (state: OAuthState, now: number) => state.expiresAt * 1000 <= now;
