import { deriveKey, open, seal } from '../../crypto/aesGcm';

// HKDF purpose of the key that seals endpoint secrets; one master secret never keys two uses.
const PURPOSE = 'email-webhook-secrets';

/** Endpoint signing secrets at rest: AES-256-GCM under a key derived from the credential-hash key. */
export function sealWebhookSecret(secretHashKey: string, secret: string): string {
  return seal(deriveKey(secretHashKey, PURPOSE), secret);
}

/** Throws when the envelope was sealed under another key (SECRET_HASH_KEY changed) or altered. */
export function openWebhookSecret(secretHashKey: string, envelope: string): string {
  return open(deriveKey(secretHashKey, PURPOSE), envelope);
}
