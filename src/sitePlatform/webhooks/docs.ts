import type { ErrorSpec } from '../../http/route';

/** Long OpenAPI prose of the webhook registration and form routing routes, kept out of the route declarations. */

export const REREGISTER = [
  'Owner or admin (session). Re-registers the 11 receiver webhooks on every site the connection shares, at the current',
  "receiver URL (PUBLIC_APP_URL and the connection's URL token), under each site's advisory lock (the lock webhook_delete",
  'also takes). Per site: the registrations are listed first and a registration with the same trigger, URL and filter is',
  'adopted instead of duplicated; missing ones are created (at most 75 per trigger per site, counting every registrant:',
  "beyond that `webhook_limit_reached` is reported for the trigger, nothing is sent); then, last, this connection's stale",
  'registrations (an old URL, a filter the form routing no longer wants, a duplicate) are deleted, but only for triggers whose',
  'wanted registrations all exist. Orphans are deleted too: registrations of this receiver whose connection no longer exists',
  "or is disconnected (counted in `deleted`); other receivers' registrations and live connections' are never touched.",
  'Subscription rows are written for created and adopted registrations and removed only after',
  'the platform confirmed a delete. form_submission is unfiltered unless the site was switched to per-form routing. Per-site',
  'failures are reported in `failed`, never as an error status. The 404, 409 and 412 answers come before any platform call.',
].join('\n');

export const ROUTING_GET = [
  "Session, or the service secret in x-agent-secret (acting for the project's owner, as on the builder operation route).",
  "The project's connection and site are resolved as for operations (override, then account default). Answers the stored mode",
  '(`site_wide` until switched) with the forms routed one by one, and the live form_submission registrations read from the',
  "platform (`filter` is the platform's `{ name }`; URLs are never shown because they carry the URL token). A site token is",
  '412 oauth_required before the platform is called.',
].join('\n');

export const ROUTING_POST = [
  "Same authentication as GET. One of three bodies, named the way the platform names forms (a form's `displayName` is",
  'what the form_submission webhook filter calls `name`, matched exactly):',
  '',
  '- `{ "mode": "site_wide" }`: one unfiltered form_submission registration (every form routes); every per-form',
  '  registration of this connection is deleted, after the site-wide one exists.',
  '- `{ "mode": "per_form", "forms": [{ "name": "Contact" }, …] }` (1–75 forms): switches the site to per-form routing: one',
  '  filtered registration per form, then the site-wide registration is deleted.',
  '- `{ "form": { "name": "Contact" }, "routed": true | false }`: turns routing on or off for one form of a site already in',
  '  per-form mode. While the site is site-wide (or a site-wide registration of this connection is live) it is 409',
  '  form_routing_site_wide and nothing changes: switch the site with `mode: per_form` first.',
  '',
  'The mode is stored per site, so a site switched to per-form never regains the site-wide registration on reconnect or',
  "reconcile. The switch runs under the site's webhook lock, creating first and deleting last; the answer is the routing as",
  'GET reads it after the switch, plus `report` (created, adopted, deleted, failed). A platform failure while registering is',
  'reported in `report.failed` (the stored mode stands and the next reconcile retries); a failure to list the registrations',
  'before the switch is an error and changes nothing.',
].join('\n');

const upstream: ErrorSpec[] = [
  { status: 401, code: 'platform_auth', description: 'The platform rejected the stored token.' },
  { status: 429, code: 'rate_limited', description: "The connection's request budget is spent; carries retry_after_seconds." },
  { status: 502, code: 'platform_upstream', description: 'Platform 5xx, network failure or malformed answer.' },
  { status: 504, code: 'platform_timeout', description: 'No platform answer inside the timeout.' },
];

export const REREGISTER_ERRORS: ErrorSpec[] = [
  {
    status: 404,
    code: 'site_platform_connection_not_found',
    description: "Not one of the account's connections (also for a malformed id or another account's).",
  },
  { status: 409, code: 'site_platform_connection_disconnected', description: 'The connection is disconnected.' },
  { status: 412, code: 'oauth_required', description: 'A site-token connection: the platform registers webhooks for OAuth apps only.' },
  {
    status: 503,
    code: 'site_platform_not_configured | site_platform_token_unreadable',
    description: 'PUBLIC_APP_URL or the token key is not set, or the stored token cannot be decrypted.',
  },
];

export const ROUTING_ERRORS: ErrorSpec[] = [
  {
    status: 404,
    code: 'project_not_found',
    description: 'Not a project of the account (the service secret: no such project, or X-Account-Id names another account).',
  },
  {
    status: 409,
    code: 'form_routing_site_wide',
    description: 'A one-form switch while the site is site-wide or a site-wide form_submission registration is live.',
  },
  { status: 409, code: 'webhook_limit_reached', description: 'A one-form switch that would route more than 75 forms one by one.' },
  { status: 409, code: 'write_locked', description: "Another registration held the site's lock for over a minute; safe to retry." },
  {
    status: 412,
    code: 'oauth_required',
    description: 'The project resolves to a site-token connection (answered before any platform call).',
  },
  {
    status: 412,
    code: 'site_platform_not_connected',
    description: 'No connection resolves for the project, or the project is bound to no site.',
  },
  ...upstream,
  {
    status: 503,
    code: 'site_platform_not_configured | site_platform_token_unreadable',
    description: 'PUBLIC_APP_URL or the token key is not set, or the stored token cannot be decrypted.',
  },
];
