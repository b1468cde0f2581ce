// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { REQUESTED_SCOPES } from './scopes';

export const startCommerceConnectSummary = 'Start connecting a shop: get the URL to send the merchant to.';

export const commerceOAuthCallbackSummary = 'OAuth callback: the platform redirects the merchant here after approval.';

export const startCommerceConnectDescription = [
  'Owner or admin. Answers `authorize_url` on the shop:',
  '`<shop>/admin/oauth/authorize?client_id=…&scope=…&redirect_uri=<PUBLIC_APP_URL>/api/oauth/commerce/callback&state=…`',
  `with the scopes \`${REQUESTED_SCOPES.join(',')}\` comma-separated and no \`grant_options[]\`, so the token is offline`,
  '(long-lived until the app is uninstalled). `state` is signed by the service and names the account and the shop;',
  'it expires after 10 minutes (`state_expires_at`). Nothing is stored until the callback.',
].join('\n');

export const shopDomainNotAllowedError = 'The shop domain is outside COMMERCE_SHOP_DOMAIN_SUFFIX; `errors` names `body.shop_domain`.';

export const commerceOAuthCallbackDescription = [
  "Checks, in order: the `state` carries the service's signature (else 400 `invalid_oauth_state`); `hmac` is the",
  "hex HMAC-SHA256, keyed by the app client_secret of the state's account, of every other query parameter except",
  '`signature`, sorted and joined as `key=value` with `&`, compared in constant time (else 401 `invalid_hmac`); the',
  'state has not expired and names this `shop` (else 400 `invalid_oauth_state`). Then the code is exchanged for an',
  'offline token, the shop is read, the connection is stored (token sealed with AES-256-GCM, `disconnected_at`',
  'cleared on a reconnect) and the standard webhook topics are registered at `<PUBLIC_APP_URL>/api/webhooks/commerce`.',
  '',
  'Answer: with `Accept: application/json`, `{ connection, webhooks: { registered, failed } }`; otherwise (a browser)',
  'a small HTML page saying the shop is connected. Webhook topics that failed are listed, not fatal: retry them with',
  'POST /api/commerce/connections/{id}/webhooks.',
].join('\n');

export const commerceRequestRejectedError =
  'The platform refused a call of the connect (a 4xx other than 401 and 429); `upstreamStatus` carries its status.';
