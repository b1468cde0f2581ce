import { open, seal } from './aesGcm';

export interface TokenCipher {
  encrypt(plaintext: string): string;
  /** `rewrap` is true when the envelope was opened with the previous key: the caller re-saves it under the current one. */
  decrypt(envelope: string): { plaintext: string; rewrap: boolean };
}

export class TokenKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenKeyError';
  }
}

/**
 * Platform tokens at rest: AES-256-GCM envelopes `v1:iv:ct:tag` under the current key. Rotation: set the old key
 * as `…_PREVIOUS`; decryption falls back to it and reports `rewrap`, so tokens move to the new key on their next write.
 */
export function createTokenCipher(
  currentKeyBase64: string | undefined,
  previousKeyBase64?: string,
  keyName = 'the token encryption key',
): TokenCipher {
  if (!currentKeyBase64) throw new TokenKeyError(`${keyName} is not set: platform tokens cannot be stored or read`);
  const current = Buffer.from(currentKeyBase64, 'base64');
  const previous = previousKeyBase64 ? Buffer.from(previousKeyBase64, 'base64') : undefined;
  return {
    encrypt: (plaintext) => seal(current, plaintext),
    decrypt(envelope) {
      try {
        return { plaintext: open(current, envelope), rewrap: false };
      } catch (err) {
        if (!previous) throw new TokenKeyError(`a stored token cannot be decrypted with ${keyName}`);
        try {
          return { plaintext: open(previous, envelope), rewrap: true };
        } catch {
          throw new TokenKeyError('a stored token cannot be decrypted with the current or the previous key');
        }
      }
    },
  };
}
