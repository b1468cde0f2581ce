/** OpenAPI prose of the views batch, kept out of the route declaration. */

export const VIEWS = [
  'Page and lead stats for 1 to 200 `{project_id, path}` pairs over `window` (7d, 30d default, 90d: closed UTC days',
  'ending yesterday; all: all time). Writes nothing. Each path is made site-absolute (a full URL keeps only its path),',
  'its query string, fragment and trailing slash removed (`/` stays `/`); a path that cannot be read is 400 naming it.',
  'Per pair: `form_submits` (submits the web-analytics collector saw in the browser: its form goal, on that page),',
  '`leads` (forms-ledger rows of the project on that page, without spam, duplicate and deleted rows) and `contacts` (the',
  'distinct CRM contacts those rows resolve to). A pair with no data on either side is absent, not zero; a project the',
  'account does not own is omitted (as if sent without it). One collector query per project, not per path.',
  '\n\n**Degraded.** Collector queries are per project, and so are their failures. A project whose query fails is',
  'listed in `degraded_projects` with its own `reason`; its pairs are answered in `ledger` (`leads` and `contacts` per',
  'pair with ledger data; `form_submits` needs the collector and is never guessed), while every other project keeps its',
  '`stats`. Reasons: `collector_auth` (401/403: the key was refused; the collector answers the same 401 for a site the',
  'key cannot see, so when the same key was answered for another project of the batch, that 401 is `site_not_found`),',
  '`site_not_found` (as above, or a 404), `collector_rate_limited` (429), `collector_unreachable` (network failure,',
  'timeout, 408 or 5xx), `collector_bad_response` (a refused query or an unreadable answer) and',
  '`collector_not_configured` (no collector key: every project with a site id). The answer is still 200; `degraded` is',
  'true whenever a project is degraded or no collector is configured, and `degraded_reason` is the reason the degraded',
  'projects share (`mixed` when they differ; `collector_not_configured` without a collector; null when not degraded).',
  'With the collector unreachable for every project, `stats` is empty. A project with no collector',
  'site id (`analytics_site_id`, set with `PATCH /api/projects/{id}`) is listed in `projects_without_site`, whether',
  'degraded or not, and its pairs are answered in `ledger` only; it does not make the answer degraded.',
].join(' ');
