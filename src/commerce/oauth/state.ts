import { randomBytes } from 'node:crypto';
import { deriveKey } from '../../crypto/aesGcm';
import { readSignedPayload, signPayload } from '../../crypto/signedPayload';

/** How long a connect attempt may take from the authorize URL to the callback. */
export const STATE_TTL_SECONDS = 10 * 60;

export interface OAuthState {
  accountId: string;
  shopDomain: string;
  nonce: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** The state key: derived from SECRET_HASH_KEY for this one purpose, so it signs nothing else. */
export function stateKey(secretHashKey: string): Buffer {
  return deriveKey(secretHashKey, 'commerce-oauth-state');
}

/** `base64url(JSON payload).base64url(HMAC-SHA256(payload))` — URL-safe, so it passes through the platform unchanged. */
export function signState(key: Buffer, state: OAuthState): string {
  return signPayload(key, { a: state.accountId, s: state.shopDomain, n: state.nonce, e: state.expiresAt });
}

export function newState(accountId: string, shopDomain: string, now = Date.now()): OAuthState {
  return { accountId, shopDomain, nonce: randomBytes(16).toString('hex'), expiresAt: Math.floor(now / 1000) + STATE_TTL_SECONDS };
}

/** The state if it carries our signature (constant-time check), else null. Expiry and shop are checked by the caller. */
export function readState(key: Buffer, token: string): OAuthState | null {
  const data = readSignedPayload(key, token) as Record<string, unknown> | undefined;
  if (!data || typeof data.a !== 'string' || typeof data.s !== 'string' || typeof data.n !== 'string' || typeof data.e !== 'number')
    return null;
  return { accountId: data.a, shopDomain: data.s, nonce: data.n, expiresAt: data.e };
}

export const isExpired = (state: OAuthState, now = Date.now()) => state.expiresAt * 1000 <= now;
