// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { MAX_BATCH } from './service';

export const rateLimitExceededError = "Over the key's per-second limit (this replica's share); Retry-After and RateLimit-* headers.";

export const dailyQuotaExceededError = "Over a live key's daily cap (UTC day); Retry-After until midnight UTC.";

export const smtpNotConfiguredError = 'A live key on a server without SMTP_URL; nothing was sent or counted.';

export const smtpRejectedError = 'The SMTP relay refused the message (`smtp_code`); an `email.failed` event is emitted.';

export const smtpUnavailableError =
  'The SMTP relay could not be reached, refused our credentials or timed out; an `email.failed` event is emitted.';

export const sendEmailBatchResponsesR202Description =
  'A live batch beyond the key\'s per-second share: queued, sent by a job at the key\'s rate (`{ id, object: "batch", job_id, data }`); or a batch with scheduled messages (`{ data }`, each scheduled one `status: "scheduled"` with its `scheduled_at`)';

export const scheduledSendDescription =
  "Scheduled (`scheduled_at`): checked like a send now (domain rules, template rendered now), stored `scheduled` with its body and sent at its time by the job `email-scheduled:<account>:<id>`; an `email.scheduled` event (live keys). Nothing is counted now: the key's revocation, per-second limit and daily cap apply at its time. A test key's is stored and becomes `simulated` at its time, never relayed.";

export const scheduleUnavailableError = 'A scheduled send, and the job engine did not answer: nothing was stored.';

export const batchTooLargeError = `More than ${MAX_BATCH} messages; nothing was sent.`;

export const temporalUnavailableError = 'A live batch to queue, and the job engine did not answer: nothing was queued or counted.';

export const getEmailDescription =
  "An email a live key of the account sent, queued or scheduled; its `status` moves `queued` (or `scheduled`) → `sending` → `sent` or `failed`, or `scheduled` → `cancelled`. A test key's immediate simulated sends are not stored (404); its scheduled ones are (`simulated` at their time). An id of another account is 404. `GET /v1/email/emails/{id}` answers the same with scope `email:send`.";

export const sendEmailBatchDescription = [
  `The body is an array of 1 to ${MAX_BATCH} messages shaped like the body of POST /v1/email/send; more is 400 \`batch_too_large\`, anything but an array 400 \`validation_failed\`.`,
  'The answer has one result per message, in order: `{ index, id, messageId, status }` or `{ index, error: { code, message, errors? } }`. A message that fails its own validation, domain rules or template gets an error result while the others go on.',
  "Within the key's per-second share on this replica, the valid messages are admitted by the rate limiter together — all of them or none (429 for the whole request) — and answered at once (200). Live keys: each message goes to the relay on its own (a refusal is that message's `smtp_rejected`); a key revoked before any message committed answers 401. Test keys simulate every valid message.",
  'Beyond that share, a **test key** simulates every valid message at once (200; the batch takes the whole share of that second). A **live key** gets 202 with `{ id, object: "batch", job_id, data }`: each valid message is `queued` and one job sends them at the key\'s rate (the share per second), each with its `email.sent` / `email.failed` event; `GET /v1/email/messages/{id}` shows each move from `queued` to `sent` or `failed`. The daily cap is charged for every message up front (429 `daily_quota_exceeded` if it does not fit) and refunded for each that fails. While the batch is sent, this replica admits no other send of the key (429 `rate_limit_exceeded` with Retry-After), so the key never exceeds its limit. A key revoked mid-batch fails the messages not yet sent (`api_key_revoked`, refunded).',
  "Honours `Idempotency-Key` (a queued batch's 202 is replayed; it is sent once).",
].join('\n\n');
