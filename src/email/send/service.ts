import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { assertKeyActive, liveKeyOf, type EmailKeyAuth } from '../keys/authenticate';
import { admitSends, currentRateLimitHeaders, undoSends } from '../limits/admit';
import { emailRuntime } from '../keys/runtime';
import { recordSends } from '../usage/record';
import { simulateTestOutcomes } from '../outcomes';
import { formatMailbox } from './addresses';
import { enqueueMessage } from './enqueue';
import { prepareMessage, type PreparedMessage } from './prepare';
import { queueBatch } from './queue';
import { scheduleMessage } from './schedule';
import * as store from './store';
import type { MessageRow } from './store';
import { answeredRecipients, type AnsweredRecipient } from './recipients';
import { parseMessage, type FieldError, type MessageInput } from './schema';

// The batch delivery workflow's list of messages (activities/emailBatches.ts), as stored.
export { queuedIds } from './store';

export const MAX_BATCH = 100;

export interface SentEmail {
  id: string;
  messageId: string;
  status: 'simulated' | 'queued' | 'scheduled';
  test: boolean;
  from: string;
  to: string[];
  createdAt: Date;
  /** Every recipient and its state now: `queued`, `simulated` (test key) or `scheduled`, or `skipped` (suppressed). */
  recipients: Array<AnsweredRecipient<'queued' | 'simulated' | 'scheduled'>>;
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
 * then — the commit point — the key's revocation. A test key answers the full response and sends nothing; a live
 * key's message is accepted: stored `queued` and handed to its delivery job, which retries the relay until every
 * recipient has its outcome (503 `temporal_unavailable`, nothing kept or counted, when the job cannot start).
 */
export async function sendEmail(
  deps: AppDeps,
  auth: EmailKeyAuth,
  input: MessageInput,
  requestId: string = randomUUID(),
): Promise<{ email: SentEmail & { status: 'queued' | 'simulated' }; headers: Record<string, string> }> {
  const message = await prepareMessage(deps, auth, input);
  assertRelayConfigured(deps, auth);
  const { headers, quotaDay } = await admitSends(deps, auth, 1);
  try {
    assertKeyActive(auth);
    if (auth.environment === 'live') await enqueueMessage(deps, auth, message, quotaDay, requestId);
  } catch (err) {
    await undoSends(deps, auth, 1, quotaDay);
    throw err;
  }
  if (auth.environment === 'test') {
    recordSends(auth, 1);
    await simulateTestOutcomes(deps, auth, [message]);
    return { email: sentEmail(message, 'simulated', true), headers };
  }
  return { email: sentEmail(message, 'queued', false), headers };
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
 * - A live key's valid messages are accepted together (202): stored `queued` and sent by one workflow at the key's
 *   rate, each retried until its recipients have their outcomes.
 * - A test key's valid ones are simulated at once: within the key's per-second share they are admitted together (or
 *   the request is 429); beyond it they take the whole share.
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
  const results = new Map<number, BatchEntry>();
  const answer = () => checked.map((c) => results.get(c.index) ?? (c as BatchEntry));
  if (auth.environment === 'live') {
    const batch = await queueBatch(
      deps,
      auth,
      ready.map((r) => r.message),
      requestId,
    );
    for (const { index, message } of ready) results.set(index, { index, email: sentEmail(message, 'queued', false) });
    return { entries: answer(), headers: batch.headers, queued: { batchId: batch.batchId, jobId: batch.jobId } };
  }

  const share = emailRuntime(deps).limiter.share(liveKeyOf(auth).ratePerSecond);
  const { headers } = await admitSends(deps, auth, Math.min(ready.length, share));
  assertKeyActive(auth);
  for (const { index, message } of ready) results.set(index, { index, email: sentEmail(message, 'simulated', true) });
  recordSends(auth, ready.length);
  await simulateTestOutcomes(
    deps,
    auth,
    ready.map((r) => r.message),
  );
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
  // A message whose every recipient is suppressed names the addresses, as the single send's 422 does.
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
    recipients: answeredRecipients(message, test ? 'simulated' : 'queued'),
  };
}

/** A stored (live) message of the account; a test key's simulated sends are not stored. */
export async function getEmail(deps: AppDeps, auth: EmailKeyAuth, id: string): Promise<MessageRow> {
  const row = isUuid(id) ? await store.getMessage(deps.db, auth.accountId, id) : undefined;
  if (!row) throw new ApiError(404, 'email_not_found', "email not found (a test key's simulated sends are not stored)");
  return row;
}
