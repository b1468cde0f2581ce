import { createHash, createHmac } from 'node:crypto';

/** The receiver's path prefix; the full path is `${RECEIVER_PATH_PREFIX}/{connectionId}/{urlToken}`. */
export const RECEIVER_PATH_PREFIX = '/api/webhooks/site-platform';

/**
 * The per-connection URL token: base64url(HMAC-SHA256(SECRET_HASH_KEY, `site-platform-webhook-url:<connectionId>`)).
 * Derived, never stored, so the service can rebuild the current receiver URL at any time (reconcile) while the
 * database holds only its SHA-256 (`webhook_url_token_hash`). Never log or return it, except inside the receiver
 * URL of a site-token connect answer (shown that once).
 */
export function urlTokenOf(secretHashKey: string, connectionId: string): string {
  return createHmac('sha256', secretHashKey).update(`site-platform-webhook-url:${connectionId}`).digest('base64url');
}

/** What `site_platform_connections.webhook_url_token_hash` holds: hex SHA-256 of the token. */
export function urlTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** `${PUBLIC_APP_URL}/api/webhooks/site-platform/${connectionId}/${urlToken}` (a trailing slash of the base is dropped). */
export function receiverUrlOf(publicAppUrl: string, connectionId: string, token: string): string {
  return `${publicAppUrl.replace(/\/+$/, '')}${RECEIVER_PATH_PREFIX}/${encodeURIComponent(connectionId)}/${token}`;
}

/** True when `url` is a receiver URL of this connection, whatever its host or token (an old PUBLIC_APP_URL included). */
export function isReceiverUrlOf(url: string, connectionId: string): boolean {
  try {
    return new URL(url).pathname.startsWith(`${RECEIVER_PATH_PREFIX}/${connectionId}/`);
  } catch {
    return false;
  }
}

/**
 * The connection id a receiver URL names, whatever its host or base path (an old PUBLIC_APP_URL included); null for
 * a URL that is not `…/api/webhooks/site-platform/{connectionId}/{urlToken}`.
 */
export function receiverConnectionOf(url: string): string | null {
  try {
    const path = new URL(url).pathname;
    const at = path.indexOf(`${RECEIVER_PATH_PREFIX}/`);
    if (at < 0) return null;
    const [id, token] = path.slice(at + RECEIVER_PATH_PREFIX.length + 1).split('/');
    return id && token ? decodeURIComponent(id) : null;
  } catch {
    return null;
  }
}

/** True when `url` is a receiver URL of this deployment: under `${publicAppUrl}/api/webhooks/site-platform/`. */
export function isOwnReceiverUrl(url: string, publicAppUrl: string): boolean {
  try {
    const base = new URL(`${publicAppUrl.replace(/\/+$/, '')}${RECEIVER_PATH_PREFIX}/`);
    const at = new URL(url);
    return at.origin === base.origin && at.pathname.startsWith(base.pathname);
  } catch {
    return false;
  }
}
