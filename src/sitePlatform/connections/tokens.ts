import type { Config } from '../../config';
import { createTokenCipher, TokenKeyError, type TokenCipher } from '../../crypto/tokenEnvelope';
import { ApiError } from '../../http/errors';

export const notConfigured = (what: string) => new ApiError(503, 'site_platform_not_configured', `${what} is not set on the service`);

/** The cipher of SITE_PLATFORM_TOKEN_ENCRYPTION_KEY (and _PREVIOUS); 503 `site_platform_not_configured` without it. */
export function siteTokenCipher(config: Config): TokenCipher {
  try {
    return createTokenCipher(
      config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY,
      config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS,
      'SITE_PLATFORM_TOKEN_ENCRYPTION_KEY',
    );
  } catch (err) {
    if (err instanceof TokenKeyError) throw notConfigured('SITE_PLATFORM_TOKEN_ENCRYPTION_KEY');
    throw err;
  }
}

/**
 * Opens a sealed value. `resealed` is set when it was under the previous key: the caller writes it back, so a
 * rotation completes as rows are used. A value under no configured key is 503 `site_platform_token_unreadable`.
 */
export function openSealed(config: Config, envelope: string): { plaintext: string; resealed?: string } {
  const cipher = siteTokenCipher(config);
  try {
    const { plaintext, rewrap } = cipher.decrypt(envelope);
    return rewrap ? { plaintext, resealed: cipher.encrypt(plaintext) } : { plaintext };
  } catch (err) {
    if (!(err instanceof TokenKeyError)) throw err;
    throw new ApiError(
      503,
      'site_platform_token_unreadable',
      'a stored credential cannot be decrypted with the configured keys; restore SITE_PLATFORM_TOKEN_ENCRYPTION_KEY(_PREVIOUS) or reconnect',
    );
  }
}
