// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const runCronDescription =
  'The sweeps run as Temporal Schedules on their cron (UTC); this starts the same workflow once more, at once, ' +
  'as run `cron:<name>:<uuid>` with `AccountId = _system` and `JobKind = <name>`, and answers 202 with it. ' +
  'Authorization: `Bearer <CRON_SECRET>`, compared in constant time; with CRON_SECRET unset every call is 401 ' +
  '`cron_secret_unset`. The body takes the options the sweep accepts (`run_now_options` in `GET /api/schedules`): ' +
  '`account_id` limits the site platform connection sweeps to one account, `disconnect_cap` bounds the disconnects of ' +
  'token health; an empty body runs it as its schedule does. The run belongs to no account, so `/api/jobs` does not ' +
  'show it: read it at `run_url` (and `Location`), `GET /api/schedules/{name}/runs/{id}`, with the same secret.';

export const runNowValidationError =
  'An unknown member, a value out of range, or an option this sweep does not take (the error names it); nothing starts.';

export const cronSecretUnsetError = 'CRON_SECRET is not configured: cron routes are closed.';

export const scheduleRunsDescription =
  "Operator route (`Authorization: Bearer <CRON_SECRET>`): the runs of one schedule from Temporal visibility — those its Schedule started (cron or `/trigger`) and those started by hand with `POST /api/cron/{name}`. Order: running runs first, then closed ones, newest first. Paged by cursor like `GET /api/jobs` (pass `next_cursor` as `cursor` with the same filters; another listing's cursor is 400 `invalid_cursor`). Each run carries its status, start and close times, the result's `partial` flag and per-account counts of the entries its result names (`accounts`), its options and, while running, its progress. Visibility is eventually consistent: a run started a moment ago can take a second or two to appear; `GET /api/schedules/{name}/runs/{id}` is always current.";

export const scheduleRunDescription =
  "Operator route (`Authorization: Bearer <CRON_SECRET>`): one run of the schedule, current — live progress while running, the result (the sweep's summary), `partial` and per-account counts once completed, the coded error when failed. An id that is not a run of this schedule (another sweep's, an account's job, none) is 404 `schedule_run_not_found`.";
