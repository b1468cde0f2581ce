import { webhookSecretBox } from '../webhookKit/secretBox';

// HKDF purpose of the key that seals account endpoint and callback secrets; one master secret never keys two uses.
const box = webhookSecretBox('account-webhook-secrets');

export const sealAlertSecret = box.seal;
/** Throws when the envelope was sealed under another key (SECRET_HASH_KEY changed) or altered. */
export const openAlertSecret = box.open;
