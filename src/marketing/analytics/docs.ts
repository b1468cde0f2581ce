import { MAX_PATH_LENGTH } from './paths';

export const PATH_RULES_DOC = `Page paths are compared in one canonical, site-absolute form:

- A URL (\`http\` or \`https\` only; another scheme is invalid) keeps only its path: scheme, host, port and credentials go.
  A string without a scheme is taken as a path; one without a leading slash is made site-absolute (\`blog/post\` →
  \`/blog/post\`, so \`example.com/blog\` without a scheme reads as the path \`/example.com/blog\`).
- The query string and fragment are removed; empty segments collapse (\`//a///b\` → \`/a/b\`); the trailing slash
  goes, but \`/\` stays \`/\`; \`.\` and \`..\` segments resolve as a browser resolves them (never above \`/\`).
- Percent escapes are decoded to the characters they encode (UTF-8), so \`/caf%C3%A9\` and \`/café\` are one page,
  except \`%2F\`, \`%3F\`, \`%23\` and \`%25\` (\`/\`, \`?\`, \`#\`, \`%\`): decoding those would change the path's
  meaning, so they stay escaped, upper-cased. Letter case is otherwise kept (paths are case-sensitive).
- Invalid (null): not a string, blank, a backslash, a malformed escape (\`%zz\`, a lone \`%\`), escapes that are not
  UTF-8, a control character, an unparseable URL, or more than ${MAX_PATH_LENGTH} characters once normalised.`;

export const LEDGER_STATS_DOC = `Lead stats per (project, page path, time range) come from the forms ledger (\`form_submissions\`):

- **leads**: the project's rows on that page submitted in the range (\`from\` inclusive, \`to\` exclusive), leaving
  out spam, duplicate and deleted rows.
- **contacts**: the distinct CRM contacts those rows resolve to: the row's linked contact while it exists, else the
  account's contact with the row's email (backfilled rows are never linked, yet their senders may be contacts).
- A page with no counted row is absent, not zero. Only the account's rows count.
- A row's project: the project the backfill was run for, else the account's oldest binding of the row's site that is
  not \`disabled\` (the webhook fan-out's order). A row of a site bound to no project belongs to none until a backfill
  for a project of that site claims it. Deleting a project leaves its rows in the ledger without a project.
- Deliveries carry no page, so today every platform row is on \`/\`.`;

export const ATTRIBUTION_MODEL_DOC = `Attribution is **first touch** over the forms ledger:

- A CRM contact's first touch is its earliest counted ledger row (not spam, not a duplicate, not deleted) across the
  whole account, resolved to the contact as for lead stats; ties go to the lower row id. A contact first seen on
  another page, another project or a site bound to no project is never attributed to this page.
- **attributed_contacts** of a page (project, normalised path) over a range: the contacts whose first touch is on that
  page and was submitted in the range. Each carries its first-touch submission and the UTM fields it held
  (\`utm_source\`, \`utm_medium\`, \`utm_campaign\`, \`utm_term\`, \`utm_content\`; names compared ignoring case and
  punctuation), recorded, not used to pick the touch.
- **deals**: the CRM deals of attributed contacts created at or after the contact's first touch (a deal that already
  existed was not won by the page). \`count\` counts them; \`won\` counts those in a won stage (\`won_at\` set);
  \`revenue\` is the won amounts per currency in minor units, one entry per currency, never summed or converted across
  currencies.
- The range applies to the first touch, not to the deal: a contact won over in the range brings its later deals.`;

export const DAILY_ROWS_DOC = `Stored daily rows come from the nightly job (Schedule \`content-analytics-daily\`, 02:15 UTC; run now with
\`POST /api/cron/content-analytics-daily\`): one row per item per closed UTC day, for items linked to a project with a
collector site id and with a URL on it. A row holds the page's \`views\` and \`unique_views\` that day and, in
\`external_analytics\`, the rolling 30-day scorecard as of that night (30 closed days ending that day) with the search
rank of the item's target keyword (measured at most every ANALYTICS_RANK_EVERY_DAYS days, one web-search call of the
monthly cap each, carried forward in between). A row is written once and never changed. Days the collector could not
answer are filled on the next run, up to 30 days back; an older day never stored stays missing. The scorecard's
\`rank.keywords\` and \`last_stored\` come from the newest row.`;
