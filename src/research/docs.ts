/** Long OpenAPI prose of the research routes, kept out of the route declarations. */

export const RUN_DESCRIPTION = [
  'Runs a research job (Temporal workflow `research`, job kind `research`) and waits for it up to 300 s (RESEARCH_WAIT_SECONDS):',
  '201 with the result when it finishes in time, else 202 with the job and `Location: /api/jobs/{id}` to poll (the result',
  'appears there, with live `progress`: phases knowledge, search, pages (done/total; each used page is indexed as soon as it is read), artifact, stamp). Research clients',
  'should use a timeout of 240 s or more. A re-run replaces what it retrieved again and keeps from the stored research what it',
  'could not (the web claims and sources when its web search did not run, the kb claims when the knowledge bases could not be',
  'searched), so a capped search never makes the artifact or `settings.research` poorer; a warning names what was kept.',
  '\n\nSend `Idempotency-Key` (1..255 visible ASCII characters). A key is one request of one account: the job id is',
  '`research:<account>:<key>`, so a retry with the same key attaches to the same run — still running or finished — and',
  'answers with the same result; nothing runs twice. The run keeps a hash of the request (route, item or topic, body); the',
  'same key with another route (item research, its agent twin, topic research), another item or another body is 409',
  "`idempotency_key_reused` and nothing runs. Another account's use of the same key is its own. Unlike other",
  'idempotent routes, a retry of a request still running is not 409: it waits for the same run. Without a key every request',
  'is a new run. A run that failed may be started again with the same key.',
].join(' ');

export const CONTENT_RUN = `${RUN_DESCRIPTION}\n\nThe item's title is the topic and its target_keyword the search query (the title when it has none). The run stamps the item's \`settings.research\` last (other settings keys are kept; no content version is written; updated_at moves).`;

export const CONTENT_GET =
  "`{ research, artifact }`: the item's `settings.research` (the last run's summary) and the `content_research` artifact it points at; each null before the first run.";

export const TOPIC_RUN = `${RUN_DESCRIPTION}\n\nThe artifact is keyed by the normalised topic and keyword: researching them again refreshes it (artifact_created false).`;

export const PROJECT_ID =
  "A website project of the account (`/api/projects`; 400 `invalid_reference` otherwise, nothing runs); recorded as the job's ProjectId search attribute (GET /api/jobs can filter on it in the Temporal UI).";

export const TOPIC_INVALID_REFERENCE =
  "avatar_id does not name a customer avatar of the account, or project_id a website project of the account (another account's answers like an unknown one; `field` names it); nothing runs.";
