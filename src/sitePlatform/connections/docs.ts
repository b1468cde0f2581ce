import { CALLBACK_PATH } from './authorizeUrl';
import { REQUESTED_SCOPES } from './scopes';

/** Long OpenAPI prose of the site platform connection and connect routes, kept out of the route declarations. */

export const REGISTER_CLIENT =
  'Owner or admin. The secret is sealed (AES-256-GCM) and never answered. Its `id` is the `oauth_app_id` a connect may name.';

export const CONNECT_OPTIONS =
  '`quick_connect` is true only when both SITE_PLATFORM_CLIENT_ID and SITE_PLATFORM_CLIENT_SECRET are set; `token_storage_configured` is false when SITE_PLATFORM_TOKEN_ENCRYPTION_KEY is unset (connects then answer 503).';

export const CONNECT = [
  'Owner or admin. Answers `authorize_url` at `<SITE_PLATFORM_AUTH_URL>/oauth/authorize` (authorization-code grant, no PKCE)',
  `with the scopes \`${REQUESTED_SCOPES.join(' ')}\`, redirect_uri \`<PUBLIC_APP_URL>${CALLBACK_PATH}\` and an HMAC-signed`,
  "`state` valid 5 minutes (`state_expires_at`). Client: (a) `oauth_app_id` (or the reconnected connection's), (b) the",
  "service-wide SITE_PLATFORM_CLIENT_ID/_SECRET when both are set, (c) the account's first registered client. Nothing is stored.",
].join('\n');

export const CALLBACK = [
  "Step 1: the `state` is the service's (signature), unexpired (5 minutes), and its OAuth client still belongs to the account.",
  'Step 2: the code is exchanged, the token introspected and the sites listed; the sealed token, the connection, its sites',
  'and (site_project_connect) the project binding are written in one transaction. Step 3: the row is re-read under the',
  "account's scope. Then best-effort follow-ups that never fail the connect: cache bust, webhook registration on every shared",
  'site (11 triggers each, listing first and adopting matches; `webhooks.registered` reports created, adopted, deleted and',
  'failed per site), restore of projects. With `Accept: application/json` answers `{ connection, sites, webhooks }`; else a',
  'small page that says how many webhooks were registered (no redirect: the page is the end of the flow).',
].join('\n');

export const SITE_TOKEN =
  "Owner or admin. The token (at least 20 characters) is validated with the platform (introspect, then sites) before it is stored sealed with `auth_kind: site_token`; it is never echoed. Without `project_id` it becomes (or refreshes) the account default; with it, the project's override. " +
  'Webhook registration is then attempted on every site: the platform registers webhooks for OAuth applications only, so it is ' +
  'normally refused and the answer carries `webhooks.skipped: site_token_refused` with `webhooks.receiver_url`, the receiver URL ' +
  'to enter in the platform dashboard for each of the 11 triggers. The URL embeds a secret token and is shown only in this answer; ' +
  'an inbox item (kind site_platform_webhooks_manual, one per connection) lists the steps without it. Webhooks added by hand at that ' +
  'URL are adopted on the next registration run.';

export const DISCONNECT =
  'Owner or admin. Resolution never returns the connection afterwards. Its webhook registrations are deleted on every site it ' +
  'shares, while the token still works (`webhooks.removed`); those the platform does not delete (a token already revoked on the ' +
  'platform, an outage) stay recorded (`webhooks.remaining`) and are deleted by the next registration run on their site: any ' +
  'connect or reconnect reaching it, or the hourly webhook-health repair of a connection sharing it. Then an OAuth token is revoked on the platform ' +
  '(`revocation`: revoked, or failed — the disconnect stands either way; not_applicable for a site token, which the site owner ' +
  'revokes in the platform). Projects whose content source was the platform CMS, that resolved to this connection and that no ' +
  'remaining connection reaches fall back to the native CMS (`reverted_project_ids`); a project the account default still ' +
  'reaches stays. A later connect reaching their site restores them. Idempotent: a ' +
  'disconnected connection is answered unchanged.';

export const GET_BINDING =
  "The same resolution the operation runner and the MCP tools use: the override's own connection while it reaches the " +
  'site, then the account default when it reaches the site, then none. Several connections may share one site; each answers ' +
  'with its own credentials, so `resolved.connection_id` is the connection whose token the runner sends.';
