// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { MAX_BATCH } from './service';

export const rateLimitExceededError = "Over the key's per-second limit (this replica's share); Retry-After and RateLimit-* headers.";

export const dailyQuotaExceededError = "Over a live key's daily cap (UTC day); Retry-After until midnight UTC.";

export const smtpNotConfiguredError = 'A live key on a server without SMTP_URL; nothing was sent or counted.';

export const queueUnavailableError =
  'A live send, and the job engine did not answer: nothing was stored or counted (retry after Retry-After).';

export const queuedSendDescription =
  "A live key's message is accepted: stored `queued` and delivered by its job `email-delivery:<account>:<id>`, which retries the relay after a temporary failure (a 4xx, the relay unreachable) until every recipient has its outcome or the delivery time (EMAIL_DELIVERY_MAX_AGE_SECONDS, 72 h by default) runs out. `recipients` lists each recipient (`to`, `cc`, `bcc`) with its state: `queued`, or `skipped` with the `reason` it is suppressed. Follow it with `GET /v1/email/emails/{id}` or the webhook events.";

export const sendEmailBatchResponsesR202Description =
  'A live key\'s batch: accepted, each valid message `queued` and sent by one job at the key\'s rate (`{ id, object: "batch", job_id, data }`); or a test key\'s batch with scheduled messages (`{ data }`, each scheduled one `status: "scheduled"` with its `scheduled_at`)';

export const scheduledSendDescription =
  "Scheduled (`scheduled_at`): checked like a send now (domain rules, template rendered now), stored `scheduled` with its body and sent at its time by the job `email-scheduled:<account>:<id>`; an `email.scheduled` event (live keys). Nothing is counted now: the key's revocation, per-second limit and daily cap apply at its time. A test key's is stored and becomes `simulated` at its time, never relayed.";

export const scheduleUnavailableError = 'A scheduled send, and the job engine did not answer: nothing was stored.';

export const batchTooLargeError = `More than ${MAX_BATCH} messages; nothing was sent.`;

export const temporalUnavailableError = 'A live batch to queue, and the job engine did not answer: nothing was queued or counted.';

const RECIPIENT_STATES =
  '`queued` (waiting for its first attempt), `skipped` (suppressed: never sent), `deferred` (the relay answered 4xx or could not be reached; retried), `sent` (the relay took it), `delayed` (a delay report from further on), `delivered`, `bounced` (the relay refused it at RCPT, or a bounce report; a hard bounce suppresses the address), `complained` or `failed` (`detail.code`: `smtp_rejected`, `delivery_expired`, `api_key_revoked`)';

export const recipientsDescription = `Each envelope recipient with its own state: ${RECIPIENT_STATES}. \`detail\` holds what the relay or a report said (\`smtp_code\`, \`status\` (enhanced), \`diagnostic_code\`, \`stage\`).`;

export const getEmailDescription =
  "An email a live key of the account sent, queued or scheduled; its `status` moves `queued` (or `scheduled`) → `sending` → `sent` or `failed`, through `deferred` while some recipient waits for a retry, or `scheduled` → `cancelled`; `recipients` gives each recipient's own state. A test key's immediate simulated sends are not stored (404); its scheduled ones are (`simulated` at their time). An id of another account is 404. `GET /v1/email/emails/{id}` answers the same with scope `email:send`.";

export const sendEmailBatchDescription = [
  `The body is an array of 1 to ${MAX_BATCH} messages shaped like the body of POST /v1/email/send; more is 400 \`batch_too_large\`, anything but an array 400 \`validation_failed\`.`,
  'The answer has one result per message, in order: `{ index, id, messageId, status }` or `{ index, error: { code, message, errors? } }`. A message that fails its own validation, domain rules or template gets an error result while the others go on.',
  'A **live key** gets 202 with `{ id, object: "batch", job_id, data }`: each valid message is `queued` and one job sends them at the key\'s rate (this replica\'s share of its per-second limit per second), each with its `email.sent` / `email.failed` and per-recipient events; a message the relay defers goes on with its own `email-delivery` job, retried like a single send. `GET /v1/email/messages/{id}` shows each move from `queued` to `sent` or `failed`. The request takes the share of the current second (429 for the whole request if it is not free); the daily cap is charged for every message up front (429 `daily_quota_exceeded` if it does not fit) and refunded for each that fails. While the batch is sent, this replica admits no other send of the key (429 `rate_limit_exceeded` with Retry-After), so the key never exceeds its limit. A key revoked mid-batch fails the messages not yet sent (`api_key_revoked`, refunded).',
  "A **test key** simulates every valid message at once (200): within the key's per-second share they are admitted together (or 429 for the whole request); beyond it, the batch takes the whole share of that second.",
  "Honours `Idempotency-Key` (a queued batch's 202 is replayed; it is sent once).",
].join('\n\n');
