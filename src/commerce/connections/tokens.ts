import type { Config } from '../../config';
import { createTokenCipher, TokenKeyError, type TokenCipher } from '../../crypto/tokenEnvelope';
import { ApiError } from '../../http/errors';
import type { ShopAccess } from '../../clients/commerce';
import type { CommerceDeps } from './deps';
import { rewrapSealed, type ConnectionRow } from './store';

/** The token cipher of the configured keys; 503 `commerce_not_configured` without COMMERCE_TOKEN_ENCRYPTION_KEY. */
export function tokenCipherOf(config: Config): TokenCipher {
  try {
    return createTokenCipher(
      config.COMMERCE_TOKEN_ENCRYPTION_KEY,
      config.COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS,
      'COMMERCE_TOKEN_ENCRYPTION_KEY',
    );
  } catch (err) {
    if (err instanceof TokenKeyError)
      throw new ApiError(503, 'commerce_not_configured', 'COMMERCE_TOKEN_ENCRYPTION_KEY is not set on the service');
    throw err;
  }
}

/**
 * The connection's admin token, decrypted in memory. The one way tokens are read: an envelope still under the
 * previous key (`COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS`) is re-sealed under the current key and written back,
 * so rotation completes as connections are used.
 */
export async function adminTokenOf(deps: CommerceDeps, connection: ConnectionRow): Promise<string> {
  const envelope = connection.admin_token_enc;
  if (!envelope || connection.disconnected_at) {
    throw new ApiError(409, 'commerce_connection_disconnected', `the shop ${connection.shop_domain} is disconnected; connect it again`);
  }
  const cipher = tokenCipherOf(deps.config);
  let opened: ReturnType<TokenCipher['decrypt']>;
  try {
    opened = cipher.decrypt(envelope);
  } catch (err) {
    if (!(err instanceof TokenKeyError)) throw err;
    deps.logger.error({ connectionId: connection.id }, 'commerce admin token cannot be decrypted with the configured keys');
    throw new ApiError(
      503,
      'commerce_token_unreadable',
      'the stored token cannot be decrypted with the configured keys; restore COMMERCE_TOKEN_ENCRYPTION_KEY(_PREVIOUS) or reconnect the shop',
    );
  }
  if (opened.rewrap) {
    const sealed = cipher.encrypt(opened.plaintext);
    await rewrapSealed(deps.db, connection.account_id, connection.id, 'admin_token_enc', envelope, sealed);
    connection.admin_token_enc = sealed;
  }
  return opened.plaintext;
}

/** Shop domain and admin token for a platform call. */
export async function shopAccessOf(deps: CommerceDeps, connection: ConnectionRow): Promise<ShopAccess> {
  return { shopDomain: connection.shop_domain, accessToken: await adminTokenOf(deps, connection) };
}
