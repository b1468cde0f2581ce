import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { assertKeyActive, liveKeyOf, type EmailKeyAuth } from '../keys/authenticate';
import { admitSends, currentRateLimitHeaders } from '../limits/admit';
import { emailRuntime } from '../keys/runtime';
import { recordSends } from '../usage/record';
import { simulateTestOutcomes } from '../outcomes';
import { formatMailbox } from './addresses';
import { deliverLive, type Delivery } from './deliver';
import { prepareMessage, type PreparedMessage } from './prepare';
import { queueBatch } from './queue';
import { scheduleMessage } from './schedule';
import * as store from './store';
import type { MessageRow } from './store';
import { parseMessage, type FieldError, type MessageInput } from './schema';

// Steps of the batch delivery workflow (activities/emailBatches.ts), as stored.
export { claimQueued, queuedIds } from './store';

export const MAX_BATCH = 100;

export interface SentEmail {
  id: string;
  messageId: string;
  status: 'sent' | 'simulated' | 'queued' | 'scheduled';
  test: boolean;
  from: string;
  to: string[];
  createdAt: Date;
  /** A scheduled message's time. */
  scheduledAt?: Date;
}

export type BatchEntry =
  { index: number; email: SentEmail } | { index: number; error: { code: string; message: string; errors?: FieldError[] } };

const smtpNotConfigured = () =>
  new ApiError(
    503,
    'smtp_not_configured',
    'live sending is not configured on this server (SMTP_URL is unset); nothing was sent or counted',
  );

/**
 * One message: the domain rules and the template, 503 for a live key without a relay, the rate limiter (429s),
 * then — right before the irreversible step — the key's revocation. A test key answers the full response and sends
 * nothing; a live key hands the message to the relay (502 `smtp_rejected` / `smtp_unavailable` when it fails).
 */
export async function sendEmail(
  deps: AppDeps,
  auth: EmailKeyAuth,
  input: MessageInput,
): Promise<{ email: SentEmail & { status: 'sent' | 'simulated' }; headers: Record<string, string> }> {
  const message = await prepareMessage(deps, auth, input);
  assertRelayConfigured(deps, auth);
  const { headers } = await admitSends(deps, auth, 1);
  assertKeyActive(auth);
  if (auth.environment === 'test') {
    recordSends(auth, 1);
    await simulateTestOutcomes(deps, auth, [message]);
    return { email: sentEmail(message, 'simulated', true), headers };
  }
  const [delivery] = await deliverLive(deps, auth, [message]);
  if (delivery.outcome !== 'sent') throw delivery.error;
  recordSends(auth, 1);
  return { email: sentEmail(message, 'sent', false), headers };
}

/**
 * `POST /v1/email/send` with `scheduled_at`: the same checks as a send now (domain rules, template rendered now),
 * then stored `scheduled` for its workflow (schedule.ts). No relay, rate or quota is touched until its time.
 */
export async function scheduleEmail(
  deps: AppDeps,
  auth: EmailKeyAuth,
  input: MessageInput & { scheduledAt: Date },
  requestId: string,
): Promise<SentEmail & { status: 'scheduled'; scheduledAt: Date }> {
  const message = await prepareMessage(deps, auth, input);
  return scheduleMessage(deps, auth, message, input.scheduledAt, requestId);
}

/** A batch's answer: its results, and for a queued batch (202) the batch and the job sending it. */
export interface BatchOutcome {
  entries: BatchEntry[];
  headers: Record<string, string>;
  queued?: { batchId: string; jobId: string };
  /** Some messages were scheduled (202). */
  scheduled?: boolean;
}

type CheckedItem = BatchEntry | { index: number; message: PreparedMessage; scheduledAt: Date | null };

/**
 * Up to 100 messages, a result per message in order. A message that fails its own validation, domain rules or
 * template gets an error result and the others go on.
 *
 * - Within the key's per-second share, the valid ones are admitted together (or the request is 429) and answered at
 *   once. Live: a message the relay refuses gets its error; when the key is revoked before any message committed,
 *   the request is 401.
 * - Beyond it, a test key simulates them all at once, taking the whole share; a live key queues them for one
 *   workflow that sends them at the key's rate (`queued`, answered 202).
 */
export async function sendBatch(deps: AppDeps, auth: EmailKeyAuth, items: unknown[], requestId: string): Promise<BatchOutcome> {
  if (items.length > MAX_BATCH) {
    throw new ApiError(400, 'batch_too_large', `a batch holds at most ${MAX_BATCH} messages (got ${items.length}); split it`);
  }
  const checked = await Promise.all(items.map((item, index) => checkItem(deps, auth, item, index)));
  const later = checked.filter(
    (c): c is CheckedItem & { message: PreparedMessage; scheduledAt: Date } => 'message' in c && !!c.scheduledAt,
  );
  if (later.length === 0) return sendBatchNow(deps, auth, checked, requestId);
  // The messages for now go first: a refusal of theirs (429, 401) refuses the request before anything is scheduled.
  const pending = new Set(later.map((c) => c.index));
  const outcome = await sendBatchNow(
    deps,
    auth,
    checked.map((c) => (pending.has(c.index) ? { index: c.index, error: { code: 'scheduled', message: '' } } : c)),
    requestId,
  );
  const scheduledEntries = await Promise.all(later.map((c) => scheduleItem(deps, auth, c, requestId)));
  const byIndex = new Map(scheduledEntries.map((e) => [e.index, e]));
  return { ...outcome, entries: outcome.entries.map((e) => byIndex.get(e.index) ?? e), scheduled: true };
}

/** A batch message with `scheduled_at`; a failure to schedule it (503) is its own error result. */
async function scheduleItem(
  deps: AppDeps,
  auth: EmailKeyAuth,
  item: { index: number; message: PreparedMessage; scheduledAt: Date },
  requestId: string,
): Promise<BatchEntry> {
  try {
    return { index: item.index, email: await scheduleMessage(deps, auth, item.message, item.scheduledAt, requestId) };
  } catch (err) {
    if (err instanceof ApiError) return { index: item.index, error: errorOf(err) };
    throw err;
  }
}

/** The batch's messages for now (`checked` holds only those and the finished results). */
async function sendBatchNow(deps: AppDeps, auth: EmailKeyAuth, checked: CheckedItem[], requestId: string): Promise<BatchOutcome> {
  const ready = checked.filter((c): c is { index: number; message: PreparedMessage; scheduledAt: null } => 'message' in c);
  if (ready.length === 0) return { entries: checked as BatchEntry[], headers: currentRateLimitHeaders(deps, auth) };

  assertRelayConfigured(deps, auth);
  const share = emailRuntime(deps).limiter.share(liveKeyOf(auth).ratePerSecond);
  const results = new Map<number, BatchEntry>();
  const answer = () => checked.map((c) => results.get(c.index) ?? (c as BatchEntry));
  if (auth.environment === 'live' && ready.length > share) {
    const batch = await queueBatch(
      deps,
      auth,
      ready.map((r) => r.message),
      requestId,
    );
    for (const { index, message } of ready) results.set(index, { index, email: sentEmail(message, 'queued', false) });
    return { entries: answer(), headers: batch.headers, queued: { batchId: batch.batchId, jobId: batch.jobId } };
  }

  const { headers } = await admitSends(deps, auth, Math.min(ready.length, share));
  assertKeyActive(auth);
  if (auth.environment === 'test') {
    for (const { index, message } of ready) results.set(index, { index, email: sentEmail(message, 'simulated', true) });
    recordSends(auth, ready.length);
    await simulateTestOutcomes(
      deps,
      auth,
      ready.map((r) => r.message),
    );
  } else {
    const deliveries = await deliverLive(
      deps,
      auth,
      ready.map((r) => r.message),
    );
    const sent = deliveries.filter((d) => d.outcome === 'sent').length;
    const withheld = deliveries.find((d): d is Extract<Delivery, { outcome: 'withheld' }> => d.outcome === 'withheld');
    if (sent === 0 && withheld) throw withheld.error;
    recordSends(auth, sent);
    deliveries.forEach((d, i) => {
      const { index } = ready[i];
      results.set(index, d.outcome === 'sent' ? { index, email: sentEmail(d.message, 'sent', false) } : { index, error: errorOf(d.error) });
    });
  }
  return { entries: answer(), headers };
}

async function checkItem(deps: AppDeps, auth: EmailKeyAuth, item: unknown, index: number): Promise<CheckedItem> {
  const parsed = parseMessage(item, `body.${index}`);
  if (!parsed.ok) {
    const message = `invalid message: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`;
    return { index, error: { code: 'validation_failed', message, errors: parsed.errors } };
  }
  try {
    return { index, message: await prepareMessage(deps, auth, parsed.message), scheduledAt: parsed.message.scheduledAt ?? null };
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return { index, error: errorOf(err) };
    throw err;
  }
}

function errorOf(err: ApiError): { code: string; message: string; recipients?: unknown } {
  // A suppressed recipient's result names the addresses, as the single send's 422 does.
  const recipients = err.code === 'recipient_suppressed' ? { recipients: err.extra.details?.recipients } : {};
  return { code: err.code, message: err.message, ...recipients };
}

function assertRelayConfigured(deps: AppDeps, auth: EmailKeyAuth): void {
  if (auth.environment === 'live' && !deps.config.SMTP_URL) throw smtpNotConfigured();
}

function sentEmail<S extends SentEmail['status']>(message: PreparedMessage, status: S, test: boolean): SentEmail & { status: S } {
  return {
    id: message.id,
    messageId: message.messageId,
    status,
    test,
    from: formatMailbox(message.from),
    to: message.to.map(formatMailbox),
    createdAt: message.createdAt,
  };
}

/** A stored (live) message of the account; a test key's simulated sends are not stored. */
export async function getEmail(deps: AppDeps, auth: EmailKeyAuth, id: string): Promise<MessageRow> {
  const row = isUuid(id) ? await store.getMessage(deps.db, auth.accountId, id) : undefined;
  if (!row) throw new ApiError(404, 'email_not_found', "email not found (a test key's simulated sends are not stored)");
  return row;
}
