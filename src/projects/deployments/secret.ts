import { randomBytes } from 'node:crypto';
import { deriveKey, open, seal } from '../../crypto/aesGcm';

export const SECRET_PREFIX = 'wyrv_';

// HKDF purpose of the key that seals revalidation secrets (the email webhook secrets' mechanism, its own purpose).
const PURPOSE = 'project-deployment-revalidation-secrets';

/** A new revalidation secret: `wyrv_` + base64url of 32 random bytes. Shown once; the site keeps it to verify posts. */
export function newRevalidationSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** `wyrv_…AbCd`: enough for a person to tell which secret a site holds, nothing to sign with. */
export function secretHint(secret: string): string {
  return secret.slice(-4);
}

/** The secret at rest: AES-256-GCM under a key derived from SECRET_HASH_KEY (a change of that key makes it unreadable). */
export function sealRevalidationSecret(secretHashKey: string, secret: string): string {
  return seal(deriveKey(secretHashKey, PURPOSE), secret);
}

/** Throws when the envelope was sealed under another key or altered. */
export function openRevalidationSecret(secretHashKey: string, envelope: string): string {
  return open(deriveKey(secretHashKey, PURPOSE), envelope);
}
