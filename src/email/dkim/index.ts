// What the send path needs: the active keys of a From domain, and the signer.
export { DkimSignError, SIGNED_HEADERS, signMessage } from './sign';
export { DkimSigningKey } from './signingKey';
export { DkimKeyUnreadableError, dkimKeysFor, SIGNING_KEYS_TTL_MS, type SigningKeyDeps } from './signingKeys';
