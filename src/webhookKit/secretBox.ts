import { deriveKey, open, seal } from '../crypto/aesGcm';

/**
 * Signing secrets at rest: AES-256-GCM under a key derived (HKDF) from the credential-hash key for one `purpose`, so
 * one master secret never keys two uses. Each area binds its own purpose.
 */
export function webhookSecretBox(purpose: string) {
  return {
    seal(secretHashKey: string, secret: string): string {
      return seal(deriveKey(secretHashKey, purpose), secret);
    },
    /** Throws when the envelope was sealed under another key (SECRET_HASH_KEY changed) or altered. */
    open(secretHashKey: string, envelope: string): string {
      return open(deriveKey(secretHashKey, purpose), envelope);
    },
  };
}
