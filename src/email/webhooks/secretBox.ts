import { webhookSecretBox } from '../../webhookKit/secretBox';

// HKDF purpose of the key that seals email endpoint secrets (unchanged: secrets sealed before stay readable).
const box = webhookSecretBox('email-webhook-secrets');

/** Endpoint signing secrets at rest: AES-256-GCM under a key derived from the credential-hash key. */
export const sealWebhookSecret = box.seal;

/** Throws when the envelope was sealed under another key (SECRET_HASH_KEY changed) or altered. */
export const openWebhookSecret = box.open;
