// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const commerceConnectionDisconnectedError = 'The connection is disconnected; connect the shop again.';

export const commerceTokenUnreadableError =
  'The stored token cannot be decrypted with COMMERCE_TOKEN_ENCRYPTION_KEY or its _PREVIOUS key (a key was lost); reconnect the shop.';

export const commerceUnauthorizedError =
  "The shop rejected the stored token (the app was uninstalled or the grant revoked); `upstreamStatus` carries the platform's status.";

export const commerceUnavailableError =
  'The platform failed (5xx, `upstreamStatus`) or answered a malformed body; 503 when it did not answer in time.';

export const commerceRateLimitedError =
  "The shop's call bucket stayed full after bounded retries; `retry_after_seconds` says when to retry.";

export const listCommerceConnectionsDescription =
  'Answers `{ data, total, page, limit }`; `page` defaults to 1, `limit` to 25 (maximum 100). Disconnected shops stay listed with `status: disconnected`.';

export const disconnectCommerceConnectionDescription =
  "Owner or admin. Deletes the shop's webhooks on the platform (best effort: a platform failure does not stop the disconnect), marks its subscriptions inactive, drops the stored admin token and sets `disconnected_at`. The app stays installed on the shop until the merchant uninstalls it; connecting again (POST /api/commerce/connect) restores the connection with the same id. Disconnecting a disconnected shop answers it unchanged.";

export const verifyCommerceConnectionDescription =
  'Owner or admin. Reads the shop live (`shop.json`) with the stored token and updates `shop_id` and `shop_name`. A token still sealed under the previous encryption key is re-sealed under the current one on the way.';

export const registerCommerceWebhooksDescription =
  'Owner or admin. Subscribes the shop to every standard topic at `<PUBLIC_APP_URL>/api/webhooks/commerce` (keeping subscriptions already there, moving ones at an old URL). Answers the connection and `{ registered, failed }` topics; a failed topic can be retried by calling this again.';

export const commerceRequestRejectedError =
  'The platform refused the call (a 4xx other than 401 and 429); `upstreamStatus` carries its status.';
