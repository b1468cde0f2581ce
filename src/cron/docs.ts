// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const runCronDescription =
  'The sweeps run as Temporal Schedules on their cron (UTC); this starts the same workflow once more, at once, ' +
  'as run `cron:<name>:<uuid>` with `AccountId = _system` and `JobKind = <name>`, and answers 202 with it. ' +
  'Authorization: `Bearer <CRON_SECRET>`, compared in constant time; with CRON_SECRET unset every call is 401 ' +
  '`cron_secret_unset`. The run belongs to no account, so `/api/jobs` does not show it: follow `links.temporal_ui`.';

export const cronSecretUnsetError = 'CRON_SECRET is not configured: cron routes are closed.';
