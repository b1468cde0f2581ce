/** OpenAPI prose of the views batch, kept out of the route declaration. */

export const VIEWS = [
  'Page and lead stats for 1 to 200 `{project_id, path}` pairs over `window` (7d, 30d default, 90d: closed UTC days',
  'ending yesterday; all: all time). Writes nothing. Each path is made site-absolute (a full URL keeps only its path),',
  'its query string, fragment and trailing slash removed (`/` stays `/`); a path that cannot be read is 400 naming it.',
  'Per pair: `form_submits` (submits the web-analytics collector saw in the browser: its form goal, on that page),',
  '`leads` (forms-ledger rows of the project on that page, without spam, duplicate and deleted rows) and `contacts` (the',
  'distinct CRM contacts those rows resolve to). A pair with no data on either side is absent, not zero; a project the',
  'account does not own is omitted (as if sent without it). One collector query per project, not per path.',
  '\n\n**Degraded.** When the collector is unreachable or not configured (`degraded_reason`), the answer is still 200:',
  '`stats` is empty and `degraded` true, and the ledger figures, which stand alone, are answered in `ledger` (`leads`',
  'and `contacts` per pair with ledger data); `form_submits` needs the collector and is never guessed. A project with no',
  'collector site id (`analytics_site_id`, set with `PATCH /api/projects/{id}`) is listed in `projects_without_site`',
  'and its pairs are answered in `ledger` only.',
].join(' ');
