import { ApiError } from '../../http/errors';

/** An SMTP reply: the basic code (RFC 5321) and the enhanced status code (RFC 3463) a mail client reads. */
export interface SmtpReply {
  code: number;
  enhanced: string;
}

/** Where in the SMTP dialogue a refusal is answered: AUTH has its own codes (RFC 4954). */
export type SmtpStage = 'auth' | 'mail' | 'rcpt' | 'data';

/**
 * The reply of each API error code. Temporary conditions (limits, the relay, our own failures) are 4xx, so a
 * client queues the message and retries; everything a retry cannot fix is 5xx. Documented in docs/email.md (SMTP
 * submission).
 */
const REPLIES: Record<string, SmtpReply> = {
  invalid_api_key: { code: 535, enhanced: '5.7.8' },
  encryption_required: { code: 538, enhanced: '5.7.11' },
  api_key_revoked: { code: 550, enhanced: '5.7.8' },
  missing_scope: { code: 550, enhanced: '5.7.1' },
  ip_not_allowed: { code: 550, enhanced: '5.7.1' },
  domain_not_allowed: { code: 550, enhanced: '5.7.1' },
  domain_not_verified: { code: 550, enhanced: '5.7.1' },
  domain_dkim_not_verified: { code: 550, enhanced: '5.7.1' },
  sender_mismatch: { code: 550, enhanced: '5.7.1' },
  null_sender: { code: 550, enhanced: '5.7.1' },
  rate_limit_exceeded: { code: 451, enhanced: '4.7.1' },
  daily_quota_exceeded: { code: 451, enhanced: '4.7.1' },
  too_many_recipients: { code: 452, enhanced: '4.5.3' },
  invalid_recipient: { code: 553, enhanced: '5.1.3' },
  invalid_sender: { code: 553, enhanced: '5.1.7' },
  message_too_big: { code: 552, enhanced: '5.3.4' },
  unparseable_message: { code: 554, enhanced: '5.6.0' },
  validation_failed: { code: 554, enhanced: '5.6.0' },
  invalid_idempotency_key: { code: 554, enhanced: '5.6.0' },
  idempotency_key_reused: { code: 554, enhanced: '5.6.0' },
  idempotency_request_in_progress: { code: 451, enhanced: '4.3.0' },
  smtp_not_configured: { code: 451, enhanced: '4.3.5' },
  temporal_unavailable: { code: 451, enhanced: '4.3.0' },
  recipient_suppressed: { code: 550, enhanced: '5.7.1' },
  unsupported_parameter: { code: 555, enhanced: '5.5.4' },
};

/** The API error codes with a reply of their own (the others map by status in `replyFor`). */
export const SMTP_REPLY_CODES = Object.keys(REPLIES);

export function replyFor(err: ApiError, stage: SmtpStage): SmtpReply {
  // AUTH answers only its own codes: a key that exists but may not submit is still "credentials refused" there.
  if (stage === 'auth' && (err.code === 'invalid_api_key' || err.code === 'api_key_revoked')) return { code: 535, enhanced: '5.7.8' };
  // Outside AUTH, a command that needs TLS first is RFC 3207's 530 (538 is AUTH's own, RFC 4954).
  if (stage !== 'auth' && err.code === 'encryption_required') return { code: 530, enhanced: '5.7.0' };
  // A suppressed recipient refused at RCPT is a bad destination mailbox for this sender (RFC 3463 X.1.1); a whole
  // message refused at the end of DATA for it (suppressed meanwhile) is a policy refusal.
  if (stage === 'rcpt' && err.code === 'recipient_suppressed') return { code: 550, enhanced: '5.1.1' };
  const known = REPLIES[err.code];
  if (known) return known;
  if (err.status >= 500 || err.status === 429) return { code: 451, enhanced: '4.3.0' };
  return { code: 554, enhanced: '5.0.0' };
}

/**
 * The error an smtp-server handler calls back with: `responseCode` is the reply code and the text starts with the
 * enhanced code, then the API error code and its message (never the key: no message carries it). A retry time
 * (Retry-After of REST) is said in the text, which is printable ASCII whatever the message holds (`asciiReplyText`).
 */
export function smtpRefusal(raw: unknown, stage: SmtpStage): Error & { responseCode: number } {
  const err = raw instanceof ApiError ? raw : new ApiError(500, 'internal', 'internal error; try again later');
  const { code, enhanced } = replyFor(err, stage);
  const retry = err.extra.retryAfterSeconds !== undefined ? `; retry in ${err.extra.retryAfterSeconds} s` : '';
  return Object.assign(new Error(asciiReplyText(`${enhanced} ${err.code}: ${err.message}${retry}`)), { responseCode: code });
}

/** Typographic characters REST messages may use, as ASCII (NFKD already spells an ellipsis as three dots). */
const ASCII_SPELLING: Record<string, string> = {
  '\u2013': '-',
  '\u2014': '-',
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2192': '->',
};

/**
 * An SMTP reply's text is US-ASCII (RFC 5321 4.2), while messages shared with REST or echoing a client's address
 * may hold more. Accents are dropped, typographic characters spelled in ASCII, line breaks and control characters
 * become spaces, anything else `?`.
 */
export function asciiReplyText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[\u2013\u2014\u2018\u2019\u201c\u201d\u2192]/g, (c) => ASCII_SPELLING[c])
    .replace(/[\x00-\x1f\x7f]/g, ' ')
    .replace(/[^\x20-\x7e]/gu, '?');
}

/** An SMTP-only refusal as an ApiError, so it maps through the same table. */
export const smtpError = (code: string, message: string, status = 400, extra: ApiError['extra'] = {}) =>
  new ApiError(status, code, message, extra);
