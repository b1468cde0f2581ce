import type { Knex } from '../../db/knex';
import type { PreparedMessage } from './prepare';
import type { Recipient, RecipientState } from './recipients';
import { messageRow } from './store';

/**
 * The SQL of the durable send queue: a live message is stored `queued` with its body (`payload`) and one row per
 * recipient; each delivery attempt claims it (`sending`), records every recipient's outcome and leaves it `sent`,
 * `failed` or — some recipients waiting for another attempt — `deferred`.
 */

export interface QueuedMessageInput {
  message: PreparedMessage;
  recipients: Array<Recipient & { state: RecipientState; detail?: Record<string, unknown> }>;
  quotaDay: string | null;
  expiresAt: Date;
  batch?: { id: string; index: number };
}

/** The message as stored in `payload`: attachments' bytes as base64. */
type StoredPayload = Omit<PreparedMessage, 'createdAt' | 'attachments'> & {
  createdAt: string;
  attachments?: Array<Omit<NonNullable<PreparedMessage['attachments']>[number], 'content'> & { content: string }>;
};

export const toPayload = (m: PreparedMessage): string =>
  JSON.stringify({
    ...m,
    ...(m.attachments ? { attachments: m.attachments.map((a) => ({ ...a, content: a.content.toString('base64') })) } : {}),
  });

export function fromPayload(p: StoredPayload): PreparedMessage {
  const { attachments, ...rest } = p;
  return {
    ...rest,
    createdAt: new Date(p.createdAt),
    // Messages stored before recipients could be skipped have no `skipped`.
    skipped: p.skipped ?? [],
    ...(attachments ? { attachments: attachments.map((a) => ({ ...a, content: Buffer.from(a.content, 'base64') })) } : {}),
  };
}

export async function insertQueued(db: Knex, accountId: string, keyId: string, items: QueuedMessageInput[]): Promise<void> {
  if (items.length === 0) return;
  await db.transaction(async (trx) => {
    await trx('email_messages').insert(
      items.map(({ message, quotaDay, expiresAt, batch }) => ({
        ...messageRow(accountId, keyId, message),
        status: 'queued',
        created_at: message.createdAt,
        payload: toPayload(message),
        quota_day: quotaDay,
        expires_at: expiresAt,
        ...(batch ? { batch_id: batch.id, batch_index: batch.index } : {}),
      })),
    );
    await insertRecipients(
      trx,
      accountId,
      items.flatMap(({ message, recipients }) => recipients.map((r) => ({ messageId: message.id, ...r }))),
    );
  });
}

export async function insertRecipients(
  db: Knex,
  accountId: string,
  rows: Array<Recipient & { messageId: string; state: RecipientState; detail?: Record<string, unknown> }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db('email_recipients').insert(
    rows.map((r) => ({
      message_id: r.messageId,
      account_id: accountId,
      email: r.email,
      type: r.type,
      state: r.state,
      detail: JSON.stringify(r.detail ?? {}),
    })),
  );
}

/** Queued messages whose job never started: they go (with their recipients), as if the request never came. */
export async function deleteQueued(db: Knex, accountId: string, ids: string[]): Promise<void> {
  await db('email_messages').where({ account_id: accountId, status: 'queued' }).whereIn('id', ids).delete();
}

export interface ClaimedMessage {
  message: PreparedMessage;
  keyId: string | null;
  quotaDay: string | null;
  /** Whether some recipient was handed to the relay before this attempt. */
  sentBefore: boolean;
  /** Recipients waiting for this attempt (`queued` or `deferred`), each with whether it was deferred before. */
  pending: Array<Recipient & { deferredBefore: boolean }>;
  /** Recipients a dead attempt handed over and marked, but whose `email.sent` it never recorded. */
  unannounced: string[];
}

/**
 * Takes the messages among `ids` that wait for attempt number `attempt`: `queued` or `deferred`, or `sending` under
 * this same attempt number (a retry of an attempt whose worker died). Another attempt in flight never takes one twice.
 */
export async function claimForAttempt(db: Knex, accountId: string, ids: string[], attempt: number): Promise<ClaimedMessage[]> {
  if (ids.length === 0) return [];
  const rows: Array<{ id: string; payload: StoredPayload; key_id: string | null; quota_day: string | null; sent_at: Date | null }> =
    await db('email_messages')
      .where({ account_id: accountId })
      .whereIn('id', ids)
      .where((q) => q.whereIn('status', ['queued', 'deferred']).orWhere({ status: 'sending', attempts: attempt }))
      .update({ status: 'sending', attempts: attempt, updated_at: db.fn.now() })
      .returning(['id', 'payload', 'key_id', db.raw(`to_char(quota_day, 'YYYY-MM-DD') as quota_day`), 'sent_at']);
  if (rows.length === 0) return [];
  const pending: Array<{ message_id: string; email: string; type: Recipient['type']; state: RecipientState; unannounced: boolean }> =
    await db('email_recipients')
      .whereIn(
        'message_id',
        rows.map((r) => r.id),
      )
      .where((q) =>
        q.whereIn('state', ['queued', 'deferred']).orWhere((u) => u.where('state', 'sent').whereRaw(`detail->>'unannounced' is not null`)),
      )
      .select('message_id', 'email', 'type', 'state', db.raw(`detail->>'unannounced' is not null as unannounced`));
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows
    .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
    .map((r) => ({
      message: fromPayload(r.payload),
      keyId: r.key_id,
      quotaDay: r.quota_day,
      sentBefore: r.sent_at !== null,
      pending: pending
        .filter((p) => p.message_id === r.id && !p.unannounced)
        .map((p) => ({ email: p.email, type: p.type, deferredBefore: p.state === 'deferred' })),
      unannounced: pending.filter((p) => p.message_id === r.id && p.unannounced).map((p) => p.email),
    }));
}

/**
 * Recipients the relay has just taken, marked at once (before the attempt records anything else): a worker that dies
 * after this never sends to them again, and the attempt retried after it announces them.
 */
export async function markHandedOver(
  db: Knex,
  messageId: string,
  handedOver: Array<{ email: string; detail: Record<string, unknown> }>,
): Promise<void> {
  if (handedOver.length === 0) return;
  await db.raw(
    `update email_recipients r set state = 'sent', detail = v.detail || '{"unannounced": true}'::jsonb, updated_at = now()
       from unnest(?::text[], ?::jsonb[]) as v(email, detail)
      where r.message_id = ? and r.email = v.email and r.state in ('queued', 'deferred')`,
    [handedOver.map((h) => h.email), handedOver.map((h) => JSON.stringify(h.detail)), messageId],
  );
}

/** A recipient's new state after an attempt. */
export interface RecipientUpdate {
  email: string;
  state: RecipientState;
  detail: Record<string, unknown>;
}

/** What an attempt leaves on the message. */
export interface MessageSettlement {
  id: string;
  status: 'sent' | 'failed' | 'deferred';
  /** Set the first time a recipient was handed over. */
  sentAt: Date | null;
  errorCode: string | null;
  lastError: Record<string, unknown> | null;
  /** The body stays while a recipient may still need it. */
  keepPayload: boolean;
}

export async function recordAttempt(
  trx: Knex.Transaction,
  accountId: string,
  settlement: MessageSettlement,
  recipients: RecipientUpdate[],
): Promise<void> {
  await trx('email_messages')
    .where({ account_id: accountId, id: settlement.id })
    .update({
      status: settlement.status,
      sent_at: settlement.sentAt ? trx.raw('coalesce(sent_at, ?)', [settlement.sentAt]) : trx.raw('sent_at'),
      error_code: settlement.errorCode,
      last_error: settlement.lastError ? JSON.stringify(settlement.lastError) : null,
      ...(settlement.keepPayload ? {} : { payload: null }),
      updated_at: trx.fn.now(),
    });
  for (const r of recipients) {
    await trx('email_recipients')
      .where({ message_id: settlement.id, email: r.email })
      .update({ state: r.state, detail: JSON.stringify(r.detail), updated_at: trx.fn.now() });
  }
}

/** A queued message that fails before any attempt (its body goes). */
export async function markFailed(db: Knex, accountId: string, id: string, errorCode: string): Promise<void> {
  await db('email_messages')
    .where({ account_id: accountId, id })
    .update({ status: 'failed', error_code: errorCode, payload: null, updated_at: db.fn.now() });
}

/** Recipients marked when the relay took them are recorded with their attempt: their `email.sent` is on its way. */
export async function announce(db: Knex, messageId: string, emails: string[]): Promise<void> {
  await db('email_recipients')
    .where({ message_id: messageId })
    .whereIn('email', emails)
    .whereRaw(`detail->>'unannounced' is not null`)
    .update({ detail: db.raw(`detail - 'unannounced'`) });
}

/** The status of messages an attempt could not claim: settled by an earlier run of it, or gone. */
export async function statusesOf(db: Knex, accountId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{ id: string; status: string }> = await db('email_messages')
    .where({ account_id: accountId })
    .whereIn('id', ids)
    .select('id', 'status');
  return new Map(rows.map((r) => [r.id, r.status]));
}

export interface RecipientRow {
  email: string;
  type: Recipient['type'];
  state: RecipientState;
  detail: Record<string, unknown>;
  updated_at: Date;
}

export async function recipientRows(db: Knex, accountId: string, messageId: string): Promise<RecipientRow[]> {
  return db('email_recipients')
    .where({ account_id: accountId, message_id: messageId })
    .orderByRaw(`array_position(array['to', 'cc', 'bcc'], type), email`)
    .select('email', 'type', 'state', 'detail', 'updated_at');
}

/** A report's outcome for one recipient: its state, unless the recipient already has a more telling one. */
export async function markRecipientOutcome(
  db: Knex,
  messageId: string,
  email: string,
  state: RecipientState,
  detail: Record<string, unknown>,
): Promise<void> {
  const weaker: Record<string, RecipientState[]> = {
    delayed: ['queued', 'deferred', 'sent'],
    delivered: ['queued', 'deferred', 'sent', 'delayed'],
    bounced: ['queued', 'deferred', 'sent', 'delayed', 'delivered'],
    complained: ['queued', 'deferred', 'sent', 'delayed', 'delivered', 'bounced'],
  };
  await db('email_recipients')
    .where({ message_id: messageId, email })
    .whereIn('state', weaker[state] ?? [])
    .update({ state, detail: JSON.stringify(detail), updated_at: db.fn.now() });
}
