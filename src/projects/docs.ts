import { DEFAULT_LIMIT, MAX_LIMIT } from '../http/pagination';

/** Long OpenAPI prose of the project routes, kept out of the route declarations. */

/** The OpenAPI error of every route that takes a project id: the answer of `projectNotFound()` (./service). */
export const projectNotFoundError = {
  status: 404,
  code: 'project_not_found',
  description: "No project with this id in your account (also for a malformed id or another account's).",
};

export const projectInUseError = {
  status: 409,
  code: 'project_in_use',
  description: 'Content items link to the project through `cms_link`; nothing was deleted. Unlink them (or delete them) first.',
};

export const ACCESS =
  'Session token: any role reads, owner or admin writes (403 `forbidden_role` otherwise). ' +
  'Agent twin under `/api/agent/projects`: `projects:read` reads, `projects:write` writes; a read-only key only reads.';

export const LIST =
  `The account's website projects, newest first: \`{ data, total, page, limit }\`. \`page\` defaults to 1, ` +
  `\`limit\` to ${DEFAULT_LIMIT} (at most ${MAX_LIMIT}); out-of-range values are 400. ${ACCESS}`;

export const CREATE =
  'Creates a website project of the account. `kind` is `service_hosted` (the service renders and deploys it) or ' +
  '`platform_hosted` (the site platform hosts it). `host` is its public hostname (lowercased; no scheme, path or port) or null. ' +
  'A new project starts on the native CMS (`content_source: native`); the site platform operation `project_cms_provider_set` ' +
  `switches it. Honours \`Idempotency-Key\`. ${ACCESS}`;

export const GET = `One project. A malformed id, an unknown one, or another account's answers 404 \`project_not_found\`. ${ACCESS}`;

export const PATCH =
  'Changes `name`, `host`, `kind` and `analytics_site_id`; absent fields stay, `host: null` clears the hostname. ' +
  "`analytics_site_id` is the project's site in the web-analytics collector (the Plausible `site_id`: the domain as " +
  'registered there, 1–255 characters, trimmed, no spaces); `null` or "" clears it, and a project without one has no ' +
  'collector figures (page views, visitors, browser-seen form submits). `content_source` is ' +
  "read-only here (400 `validation_failed`): switching to the platform CMS needs a site, its connection's scopes and a confirmation, " +
  'which only the `project_cms_provider_set` operation checks. An empty body changes nothing and answers the project. ' +
  `${ACCESS}`;

export const DELETE =
  'Deletes the project and everything that hangs off it: its site platform binding and content-source ' +
  'bookkeeping, its commerce settings and its deployments. Refused with 409 `project_in_use` (nothing deleted) while content ' +
  'items link to it through `cms_link`: unlink or delete those items first, so no item points at a project that is gone. ' +
  'Connections made for the project (`project_override`) stay, like every connection, until disconnected. Deleting again ' +
  `answers 404. ${ACCESS}`;
