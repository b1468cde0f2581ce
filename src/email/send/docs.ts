// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { MAX_BATCH } from './service';

export const rateLimitExceededError =
  'Over the key\'s per-second limit (this replica\'s share); Retry-After and RateLimit-* headers.';

export const dailyQuotaExceededError =
  'Over a live key\'s daily cap (UTC day); Retry-After until midnight UTC.';

export const smtpNotConfiguredError =
  'A live key on a server without SMTP_URL; nothing was sent or counted.';

export const smtpRejectedError =
  'The SMTP relay refused the message (`smtp_code`); an `email.failed` event is emitted.';

export const smtpUnavailableError =
  'The SMTP relay could not be reached, refused our credentials or timed out; an `email.failed` event is emitted.';

export const sendEmailBatchResponsesR202Description =
  'A live batch beyond the key\'s per-second share: queued, sent by a job at the key\'s rate';

export const batchTooLargeError =
  `More than ${MAX_BATCH} messages; nothing was sent.`;

export const temporalUnavailableError =
  'A live batch to queue, and the job engine did not answer: nothing was queued or counted.';

export const getEmailDescription =
  'An email a live key of the account sent or queued; its `status` moves `queued` → `sending` → `sent` or `failed`. A test key\'s simulated sends are not stored (404). An id of another account is 404.';
