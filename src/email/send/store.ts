import type { Knex } from '../../db/knex';
import type { PreparedMessage } from './prepare';
import type { Tag } from './schema';

export interface NewMessageRow {
  id: string;
  key_id: string;
  from_address: string;
  to_addresses: string[];
  subject: string;
  tags: Tag[];
  smtp_message_id: string;
  /** Every envelope recipient in lower case (to, cc, bcc): a delivery report must name one of them. */
  recipients: string[];
}

/** Everyone the relay delivers the message to, in lower case. */
export const envelopeRecipients = (m: PreparedMessage): string[] => [
  ...new Set((m.envelope?.to ?? [...m.to, ...m.cc, ...m.bcc].map((r) => r.address)).map((a) => a.toLowerCase())),
];

export interface MessageRow {
  id: string;
  batch_id: string | null;
  status: 'scheduled' | 'cancelled' | 'queued' | 'sending' | 'sent' | 'simulated' | 'failed';
  from_address: string;
  to_addresses: string[];
  subject: string;
  tags: Tag[];
  smtp_message_id: string | null;
  error_code: string | null;
  sent_at: Date | null;
  /** Set for a scheduled send (`scheduled_at`), also once sent or cancelled. */
  scheduled_at: Date | null;
  created_at: Date;
}

export const messageRow = (accountId: string, keyId: string, m: PreparedMessage) => ({
  id: m.id,
  account_id: accountId,
  key_id: keyId,
  from_address: m.from.address,
  to_addresses: m.to.map((t) => t.address),
  subject: m.subject,
  tags: JSON.stringify(m.tags),
  smtp_message_id: m.messageId,
  recipients: envelopeRecipients(m),
});

/** Live sends only, recorded as `sending` before the relay gets them (a crash leaves a trace, not a silent send). */
export async function insertSending(db: Knex, accountId: string, rows: NewMessageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('email_messages').insert(rows.map((r) => ({ ...r, account_id: accountId, status: 'sending', tags: JSON.stringify(r.tags) })));
}

/** The messages of a queued batch, in batch order, each with what its workflow needs to send it (`payload`). */
export async function insertQueued(
  db: Knex,
  accountId: string,
  keyId: string,
  batchId: string,
  messages: PreparedMessage[],
): Promise<void> {
  await db('email_messages').insert(
    messages.map((m, i) => ({
      ...messageRow(accountId, keyId, m),
      status: 'queued',
      batch_id: batchId,
      batch_index: i,
      created_at: m.createdAt,
      payload: JSON.stringify(m),
    })),
  );
}

/** The queued batch never started: its messages go, as if the request never came. */
export async function deleteQueued(db: Knex, accountId: string, batchId: string): Promise<void> {
  await db('email_messages').where({ account_id: accountId, batch_id: batchId, status: 'queued' }).delete();
}

export async function queuedIds(db: Knex, accountId: string, batchId: string): Promise<string[]> {
  const rows = await db('email_messages')
    .where({ account_id: accountId, batch_id: batchId, status: 'queued' })
    .orderBy('batch_index')
    .select('id');
  return rows.map((r) => r.id);
}

/** Takes the still-queued messages among `ids` for sending (`sending`); a retried slice never takes one twice. */
export async function claimQueued(db: Knex, accountId: string, batchId: string, ids: string[]): Promise<PreparedMessage[]> {
  const rows: Array<{ payload: PreparedMessage & { createdAt: string }; batch_index: number }> = await db('email_messages')
    .where({ account_id: accountId, batch_id: batchId, status: 'queued' })
    .whereIn('id', ids)
    .update({ status: 'sending', updated_at: db.fn.now() })
    .returning(['payload', 'batch_index']);
  return rows.sort((a, b) => a.batch_index - b.batch_index).map((r) => ({ ...r.payload, createdAt: new Date(r.payload.createdAt) }));
}

/**
 * Settled: nothing of the batch is queued, none is at the relay (a `sending` row older than the relay's timeouts is
 * a crashed send, left as a trace) and none was sent within the last second.
 */
export async function batchSettled(db: Knex, accountId: string, batchId: string): Promise<boolean> {
  const row = await db('email_messages')
    .where({ account_id: accountId, batch_id: batchId })
    .first(
      db.raw(`count(*) filter (
      where status = 'queued' or (status = 'sending' and updated_at > now() - interval '1 minute') or updated_at > now() - interval '1 second'
    )::int as busy`),
    );
  return row.busy === 0;
}

export async function getMessage(db: Knex, accountId: string, id: string): Promise<MessageRow | undefined> {
  return db('email_messages')
    .where({ account_id: accountId, id })
    .first(
      'id',
      'batch_id',
      'status',
      'from_address',
      'to_addresses',
      'subject',
      'tags',
      'smtp_message_id',
      'error_code',
      'sent_at',
      'scheduled_at',
      'created_at',
    );
}

export async function markSent(db: Knex, accountId: string, id: string, sentAt: Date): Promise<void> {
  await db('email_messages')
    .where({ account_id: accountId, id })
    .update({ status: 'sent', sent_at: sentAt, payload: null, updated_at: db.fn.now() });
}

/**
 * Live messages the relay took, marked sent together with their `email.sent` events in ONE statement (atomic
 * without a transaction): answers the events' ids.
 */
export async function markSentWithEvents(
  db: Knex,
  accountId: string,
  sent: Array<{ id: string; sentAt: Date; event: Record<string, unknown> }>,
): Promise<string[]> {
  const { rows } = await db
    .raw(
      `with sent as (
         update email_messages m set status = 'sent', sent_at = v.sent_at, payload = null, updated_at = now()
           from unnest(?::uuid[], ?::timestamptz[]) as v(id, sent_at)
          where m.account_id = ? and m.id = v.id)
       insert into email_events (account_id, type, data)
       select ?, 'email.sent', e.data from unnest(?::jsonb[]) with ordinality as e(data, n) order by e.n
       returning id`,
      [sent.map((s) => s.id), sent.map((s) => s.sentAt), accountId, accountId, sent.map((s) => JSON.stringify(s.event))],
    )
    .options({ name: 'email_mark_sent_with_events' });
  return (rows as Array<{ id: string }>).map((r) => r.id);
}

export async function markFailed(db: Knex, accountId: string, id: string, errorCode: string): Promise<void> {
  await db('email_messages')
    .where({ account_id: accountId, id })
    .update({ status: 'failed', error_code: errorCode, payload: null, updated_at: db.fn.now() });
}

/** A message withheld before the relay committed it never left: its row goes, as if the request never came. */
export async function deleteWithheld(db: Knex, accountId: string, id: string): Promise<void> {
  await db('email_messages').where({ account_id: accountId, id, status: 'sending' }).delete();
}
