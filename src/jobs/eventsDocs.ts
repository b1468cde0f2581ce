// OpenAPI prose of the live-update routes (eventRoutes.ts), kept out of the route declarations so they read as code.

export const eventsSummary = "A job's live updates as Server-Sent Events, until it closes.";

export const eventsDescription = [
  'A `text/event-stream` (send `Accept: text/event-stream`; a browser `EventSource` does). Authenticate with the usual ',
  'credential, or with `?token=` holding a job token from `POST /api/jobs/{id}/tokens` (for an `EventSource`, which ',
  'cannot send headers); a token request is answered with `Access-Control-Allow-Origin: *`, without credentials.\n\n',
  'Events (every `data` is one line of JSON):\n',
  '- `status`: the job as `GET /api/jobs/{id}` shows it. First on a fresh connection, then when the status, ',
  '`cancel_requested` or the run changes.\n',
  '- `progress`: the `progress` object `{phase, done, total, warnings}` when the job reports new progress ',
  '(looked at every `JOB_EVENTS_POLL_MS`, 500 ms by default).\n',
  '- the final event, named after the outcome: `completed` (the job, with `result`), `failed` (with `error` ',
  '`{code, message}`), `canceled`, `terminated` or `timed_out`. Its data is the closed job; the stream then ends.\n\n',
  "A `: keep-alive` comment comes every 15 s. Each event has an `id` built from the job's state: reconnect with ",
  '`Last-Event-ID` and nothing you already have is sent again (a job that closed meanwhile sends its final event at ',
  'once). Reconnecting with the id of the final event answers 204, which stops an `EventSource` from reconnecting. ',
  'The stream also ends when the server stops; reconnect then. Errors before the stream starts are the usual JSON errors.',
].join('');

export const eventsResponse =
  'The event stream: `status`, `progress`, then one of `completed`, `failed`, `canceled`, `terminated`, `timed_out`.';

export const tokensSummary = 'A short-lived, read-only token for one job, for subscribing to its events from a browser.';

export const tokensDescription = [
  'The token (`wyjt_…`) opens `GET /api/jobs/{id}/events?token=…` of this job only, and nothing else, until ',
  '`expires_at` (`ttl_seconds` 60–3600, default 900). It is signed, not stored: it cannot be revoked, so keep the ',
  'lifetime short. A token for another job answers 401 `job_token_invalid`, an expired one 401 `job_token_expired`. ',
  'The token is shown only in this answer (and `events_url`); the server never logs it.',
].join('');
