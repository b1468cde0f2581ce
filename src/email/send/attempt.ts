import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { countEmailSends } from '../../telemetry/metrics';
import { domainSendingState } from '../domains/service';
import { getKey } from '../keys/service';
import { DkimKeyUnreadableError } from '../dkim';
import { refundDailyQuota } from '../limits/dailyCap';
import { insertOutcome } from '../outcomes/store';
import { addSuppression } from '../suppressions/service';
import { UsageRecorder } from '../usage/recorder';
import { insertEvents, type EmailEventInput } from '../webhooks/service';
import { verpAddress, verpEnvelopeId } from '../returnPath/verp';
import { eventData } from './eventData';
import { recipientVariant, type RecipientVariant } from './personalize';
import type { PreparedMessage } from './prepare';
import * as queue from './queueStore';
import { composeMessage, relayFor, type RecipientReply, type RelayEnvelope } from './transport';
import type { DeliveryAttemptInput, DeliveryAttemptOutcome } from '../../../workflows/emailDelivery.contract';

export interface AttemptDeps {
  db: Knex;
  config: Config;
  /** Signs the composed message (DKIM) for its sender domain; absent: sent as composed. */
  sign?: (raw: Buffer, accountId: string, message: PreparedMessage) => Promise<Buffer>;
}

/** The reason a message or recipient failed without the relay's word for it. */
interface LocalFailure {
  code: string;
  message: string;
}

/**
 * One delivery attempt of the given queued messages (a single send, a batch slice, a due scheduled email): each is
 * claimed, its key read (revoked: every waiting recipient fails `api_key_revoked`, nothing is relayed), composed and
 * signed once, and handed to the relay — one transaction per recipient when bounces come back by VERP (each with a
 * return path and DSN envelope id tagged for that recipient, src/email/returnPath/verp.ts), else one for all. Each recipient's reply decides its state:
 * - accepted → `sent` (an `email.sent` event names the recipients handed over);
 * - a 5xx at RCPT → `bounced`, a hard bounce that suppresses the address (`email.bounced`);
 * - a 5xx at MAIL or DATA (the message itself refused) → `failed`;
 * - a 4xx or an unreachable relay → `deferred` for another attempt (`email.delivery_delayed` the first time), or on
 *   the final attempt `failed` with `delivery_expired`.
 * A message none of whose recipients was ever handed over fails (`email.failed`) and its daily cap is refunded.
 */
export async function attemptDeliveries(deps: AttemptDeps, input: DeliveryAttemptInput): Promise<DeliveryAttemptOutcome> {
  const { db, config } = deps;
  const claimed = await queue.claimForAttempt(db, input.accountId, input.emailIds, input.attempt);
  const unclaimed = await queue.statusesOf(
    db,
    input.accountId,
    input.emailIds.filter((id) => !claimed.some((c) => c.message.id === id)),
  );
  const outcome: DeliveryAttemptOutcome = {
    // Settled by an earlier run of this attempt (its answer was lost), or no longer there (its acceptance was undone).
    results: [...unclaimed].map(([emailId, status]) =>
      status === 'sent' || status === 'failed'
        ? { emailId, state: 'settled' as const, status }
        : { emailId, state: 'gone' as const, status },
    ),
    sent: 0,
    failed: 0,
    eventIds: [],
    keyRevoked: false,
  };
  if (claimed.length === 0) return outcome;

  const keyIds = [...new Set(claimed.map((c) => c.keyId).filter((k): k is string => k !== null))];
  const keys = new Map(await Promise.all(keyIds.map(async (id) => [id, await getKey(db, input.accountId, id)] as const)));
  const revoked = (c: queue.ClaimedMessage) => {
    const key = c.keyId ? keys.get(c.keyId) : undefined;
    return !key || key.revoked_at !== null;
  };

  const attempts = await Promise.all(
    claimed.map(async (c) => {
      if (revoked(c)) {
        outcome.keyRevoked = true;
        return settle(
          c,
          allFail(c, { code: 'api_key_revoked', message: 'the email API key was revoked before this message was handed to the relay' }),
          input.final,
        );
      }
      if (!config.SMTP_URL)
        return settle(c, allWait(c, 'this worker has no SMTP_URL: the message waits for a worker that can send it'), input.final);
      try {
        return settle(c, await relay(deps, input.accountId, c), input.final);
      } catch (err) {
        // A signing key sealed under another SECRET_HASH_KEY: nothing unsigned goes out; it waits for the key to be fixed.
        if (!(err instanceof DkimKeyUnreadableError)) throw err;
        return settle(
          c,
          allWait(
            c,
            `the DKIM key of ${message(c).from.domain} cannot be unsealed (SECRET_HASH_KEY changed since it was made); rotate the domain's DKIM key`,
          ),
          input.final,
        );
      }
    }),
  );

  const events = await db.transaction(async (trx) => {
    const recorded: EmailEventInput[] = [];
    for (const a of attempts) recorded.push(...(await record(trx, input.accountId, a)));
    return recorded.length > 0 ? insertEvents(trx, input.accountId, recorded) : [];
  });
  outcome.eventIds = events.map((e) => e.id);
  for (const a of attempts) {
    outcome.results.push({
      emailId: a.claimed.message.id,
      state: a.settlement.status === 'deferred' ? 'deferred' : 'settled',
      status: a.settlement.status,
    });
    if (a.handedOver.length > 0 && !a.claimed.sentBefore) outcome.sent++;
    if (a.settlement.status === 'failed') outcome.failed++;
    countEmailSends(a.settlement.status);
  }
  await countUsage(db, input.accountId, attempts);
  return outcome;
}

/**
 * Each waiting recipient's reply from the relay. The message is composed and signed once, unless a recipient needs
 * its own copy (recipientVariant); with a return path each recipient has its own transaction and VERP sender.
 */
async function relay(deps: AttemptDeps, accountId: string, c: queue.ClaimedMessage): Promise<RecipientReply[]> {
  const { message } = c;
  const pending = c.pending.map((p) => p.email);
  const returnDomain = deps.config.EMAIL_RETURN_PATH_DOMAIN
    ? ((await domainSendingState(deps, accountId, message.from.domain)).returnPathDomain ?? deps.config.EMAIL_RETURN_PATH_DOMAIN)
    : undefined;
  const variants = await Promise.all(pending.map((to) => recipientVariant(deps, accountId, message, to)));
  const perRecipient = variants.some((v) => v !== null);
  const build = async (m: PreparedMessage) => {
    const raw = await composeMessage(m);
    return deps.sign ? deps.sign(raw, accountId, m) : raw;
  };
  const shared = perRecipient ? null : await build(message);
  const relayer = relayFor(deps.config.SMTP_URL!);
  // Each transaction's takers are marked the moment the relay answers: the window in which a dying worker could
  // send a message twice is that one statement.
  const deliver = async (raw: Buffer, envelope: RelayEnvelope) => {
    const replies = await relayer.deliver(raw, envelope);
    const taken = replies.filter((r) => r.outcome === 'accepted');
    await queue.markHandedOver(
      deps.db,
      message.id,
      taken.map((r) => ({ email: r.recipient.toLowerCase(), detail: sentDetail(r) })),
    );
    return replies;
  };
  if (!returnDomain && !perRecipient) return deliver(shared!, { from: message.envelope?.from ?? message.from.address, to: pending });
  const replies = await Promise.all(
    pending.map(async (to, i) => {
      const variant = variants[i];
      const raw = variant ? await build(withVariant(message, variant)) : (shared ?? (await build(message)));
      const envelope: RelayEnvelope = returnDomain
        ? {
            from: verpAddress(secret(deps.config), returnDomain, message.id, to),
            to: [to],
            dsn: { envelopeId: verpEnvelopeId(secret(deps.config), message.id, to), originalRecipient: to },
          }
        : { from: message.envelope?.from ?? message.from.address, to: [to] };
      return deliver(raw, envelope);
    }),
  );
  return replies.flat();
}

const sentDetail = (reply: RecipientReply): Record<string, unknown> => ({
  smtp_code: reply.smtpCode,
  reply: reply.reply,
  sent_at: new Date().toISOString(),
});

/** The server secret the return path's tags are derived from (resolved before any process starts). */
function secret(config: Config): string {
  if (!config.SECRET_HASH_KEY) throw new Error('SECRET_HASH_KEY is not resolved: return-path tags cannot be made');
  return config.SECRET_HASH_KEY;
}

const withVariant = (m: PreparedMessage, v: RecipientVariant): PreparedMessage => ({
  ...m,
  headers: { ...m.headers, ...v.headers },
  ...(v.html !== undefined ? { html: v.html } : {}),
});

type Verdict =
  | { email: string; kind: 'handed_over'; reply: RecipientReply }
  | { email: string; kind: 'bounced'; reply: RecipientReply }
  | { email: string; kind: 'refused'; reply: RecipientReply }
  | { email: string; kind: 'waiting'; reply: RecipientReply; firstDelay: boolean }
  | { email: string; kind: 'expired'; reply: RecipientReply }
  | { email: string; kind: 'failed'; failure: LocalFailure };

interface Settled {
  claimed: queue.ClaimedMessage;
  verdicts: Verdict[];
  handedOver: string[];
  settlement: queue.MessageSettlement;
}

const message = (c: queue.ClaimedMessage) => c.message;

function allFail(c: queue.ClaimedMessage, failure: LocalFailure): Verdict[] {
  return c.pending.map((p) => ({ email: p.email, kind: 'failed' as const, failure }));
}

function allWait(c: queue.ClaimedMessage, why: string): RecipientReply[] {
  return c.pending.map((p) => ({
    recipient: p.email,
    outcome: 'deferred' as const,
    stage: 'connection' as const,
    smtpCode: null,
    reply: why,
  }));
}

/** The verdict per recipient and what the message becomes. */
function settle(c: queue.ClaimedMessage, replies: RecipientReply[] | Verdict[], final: boolean): Settled {
  const verdicts: Verdict[] = replies.map((r) => ('kind' in r ? r : verdictOf(c, r, final)));
  const handedOver = [...c.unannounced, ...verdicts.filter((v) => v.kind === 'handed_over').map((v) => v.email)];
  const waiting = verdicts.filter((v) => v.kind === 'waiting');
  const everSent = c.sentBefore || handedOver.length > 0;
  const last = verdicts.find((v) => v.kind !== 'handed_over');
  const lastError = last ? errorOf(last) : null;
  const status = waiting.length > 0 ? 'deferred' : everSent ? 'sent' : 'failed';
  return {
    claimed: c,
    verdicts,
    handedOver,
    settlement: {
      id: c.message.id,
      status,
      sentAt: handedOver.length > 0 ? new Date() : null,
      errorCode: status === 'failed' ? failureCode(verdicts) : null,
      lastError,
      keepPayload: status === 'deferred',
    },
  };
}

function verdictOf(c: queue.ClaimedMessage, reply: RecipientReply, final: boolean): Verdict {
  const email = reply.recipient.toLowerCase();
  if (reply.outcome === 'accepted') return { email, kind: 'handed_over', reply };
  if (reply.outcome === 'refused') return { email, kind: reply.stage === 'rcpt' ? 'bounced' : 'refused', reply };
  if (final) return { email, kind: 'expired', reply };
  const before = c.pending.find((p) => p.email === email)?.deferredBefore ?? false;
  return { email, kind: 'waiting', reply, firstDelay: !before };
}

/** The message's error code when no recipient was handed over. */
function failureCode(verdicts: Verdict[]): string {
  const local = verdicts.find((v): v is Extract<Verdict, { kind: 'failed' }> => v.kind === 'failed');
  if (local) return local.failure.code;
  if (verdicts.some((v) => v.kind === 'expired')) return 'delivery_expired';
  return 'smtp_rejected';
}

function errorOf(v: Verdict): Record<string, unknown> {
  if (v.kind === 'failed') return { code: v.failure.code, message: v.failure.message };
  if (v.kind === 'handed_over') return {};
  return replyDetail(v.reply);
}

/** What a relay reply tells a user: its code, enhanced status, stage and text. */
function replyDetail(reply: RecipientReply): Record<string, unknown> {
  const enhanced = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(reply.reply)?.[1];
  return {
    smtp_code: reply.smtpCode,
    ...(enhanced ? { status: enhanced } : {}),
    stage: reply.stage,
    diagnostic_code: reply.reply,
  };
}

/** The attempt's rows and events, in the caller's transaction. */
async function record(trx: Knex.Transaction, accountId: string, a: Settled): Promise<EmailEventInput[]> {
  const { message } = a.claimed;
  const at = new Date();
  const events: EmailEventInput[] = [];
  const updates: queue.RecipientUpdate[] = [];
  for (const v of a.verdicts) {
    if (v.kind === 'handed_over') {
      updates.push({ email: v.email, state: 'sent', detail: sentDetail(v.reply) });
    } else if (v.kind === 'bounced') {
      const detail = { ...replyDetail(v.reply), action: 'failed', bounce_type: 'hard' };
      updates.push({ email: v.email, state: 'bounced', detail });
      await insertOutcome(trx, { id: message.id, account_id: accountId }, { type: 'email.bounced', recipient: v.email, detail }, at);
      await addSuppression(trx, accountId, v.email, 'bounce', message.id);
      events.push({
        type: 'email.bounced',
        data: { ...eventData(message), recipient: v.email, ...detail, suppressed: true, occurred_at: at.toISOString() },
      });
    } else if (v.kind === 'waiting') {
      const detail = replyDetail(v.reply);
      updates.push({ email: v.email, state: 'deferred', detail });
      if (v.firstDelay) {
        await insertOutcome(
          trx,
          { id: message.id, account_id: accountId },
          { type: 'email.delivery_delayed', recipient: v.email, detail },
          at,
        );
        events.push({
          type: 'email.delivery_delayed',
          data: { ...eventData(message), recipient: v.email, ...detail, occurred_at: at.toISOString() },
        });
      }
    } else if (v.kind === 'expired') {
      updates.push({ email: v.email, state: 'failed', detail: { ...replyDetail(v.reply), code: 'delivery_expired' } });
    } else if (v.kind === 'refused') {
      updates.push({ email: v.email, state: 'failed', detail: { ...replyDetail(v.reply), code: 'smtp_rejected' } });
    } else {
      updates.push({ email: v.email, state: 'failed', detail: { code: v.failure.code, message: v.failure.message } });
    }
  }
  await queue.recordAttempt(trx, accountId, a.settlement, updates);
  await queue.announce(trx, message.id, a.claimed.unannounced);
  if (a.handedOver.length > 0) {
    events.push({ type: 'email.sent', data: { ...eventData(message), recipients: a.handedOver, sent_at: at.toISOString() } });
  }
  if (a.settlement.status === 'failed') {
    events.push({ type: 'email.failed', data: { ...eventData(message), error: { code: a.settlement.errorCode, ...failureText(a) } } });
    if (a.claimed.quotaDay && a.claimed.keyId) await refundDailyQuota(trx, a.claimed.keyId, a.claimed.quotaDay, 1);
  }
  // Recipients the relay never took while others of the message got it: each is told as a soft bounce (never suppressed).
  const expired = a.verdicts.filter((v): v is Extract<Verdict, { kind: 'expired' }> => v.kind === 'expired');
  for (const v of a.settlement.status === 'sent' ? expired : []) {
    const detail = { ...replyDetail(v.reply), action: 'failed', bounce_type: 'soft', status: '4.4.7' };
    await insertOutcome(trx, { id: message.id, account_id: accountId }, { type: 'email.bounced', recipient: v.email, detail }, at);
    events.push({ type: 'email.bounced', data: { ...eventData(message), recipient: v.email, ...detail, occurred_at: at.toISOString() } });
  }
  return events;
}

function failureText(a: Settled): Record<string, unknown> {
  const code = a.settlement.errorCode;
  const detail = a.settlement.lastError ?? {};
  const message =
    code === 'delivery_expired'
      ? 'the relay did not take the message before its delivery time ran out'
      : code === 'smtp_rejected'
        ? 'the relay refused every recipient'
        : String(detail.message ?? code);
  return {
    message,
    ...(typeof detail.smtp_code === 'number' ? { smtp_code: detail.smtp_code } : {}),
    ...(detail.status ? { status: detail.status } : {}),
  };
}

/** A message first handed over counts as a send of its key. */
async function countUsage(db: Knex, accountId: string, attempts: Settled[]): Promise<void> {
  const usage = new UsageRecorder(db);
  for (const a of attempts)
    if (a.handedOver.length > 0 && !a.claimed.sentBefore && a.claimed.keyId) usage.add(a.claimed.keyId, accountId, { sends: 1 });
  await usage.flush();
}
