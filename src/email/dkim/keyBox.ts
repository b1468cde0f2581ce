import { deriveKey, open, seal } from '../../crypto/aesGcm';

// HKDF purpose of the key that seals DKIM private keys (the webhook signing secrets' mechanism, its own purpose).
const PURPOSE = 'email-dkim-private-keys';

/** A DKIM private key at rest: AES-256-GCM `v1:iv:ct:tag` under a key derived from SECRET_HASH_KEY. */
export function sealDkimKey(secretHashKey: string, privateKeyPem: string): string {
  return seal(deriveKey(secretHashKey, PURPOSE), privateKeyPem);
}

/** Throws when the envelope was sealed under another key (SECRET_HASH_KEY changed) or altered. */
export function openDkimKey(secretHashKey: string, envelope: string): string {
  return open(deriveKey(secretHashKey, PURPOSE), envelope);
}
