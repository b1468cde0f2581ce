import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import type { PreparedMessage } from '../send/prepare';
import { messageRow } from '../send/store';
import { OUTCOME_COLUMN, type OutcomeEventType } from './types';

export interface SentRow {
  id: string;
  account_id: string;
  status: string;
  from_address: string;
  to_addresses: string[];
  recipients: string[] | null;
  subject: string;
  tags: unknown;
  smtp_message_id: string | null;
}

export interface OutcomeTimes {
  status: string;
  sent_at: Date | null;
  delivered_at: Date | null;
  bounced_at: Date | null;
  complained_at: Date | null;
  delayed_at: Date | null;
  last_event: string | null;
}

export interface OutcomeRow {
  type: OutcomeEventType;
  recipient: string;
  detail: Record<string, unknown>;
  occurred_at: Date;
}

/** An email at or past the relay by its id alone (a fast report can beat the send's own commit); the account comes from it. */
export async function findSentMessage(db: Knex, id: string): Promise<SentRow | undefined> {
  if (!isUuid(id)) return undefined;
  return db('email_messages')
    .where({ id })
    .whereIn('status', ['sending', 'sent', 'simulated'])
    .first('id', 'account_id', 'status', 'from_address', 'to_addresses', 'recipients', 'subject', 'tags', 'smtp_message_id');
}

export async function outcomeSeen(db: Knex, messageId: string, type: OutcomeEventType, recipient: string): Promise<boolean> {
  return Boolean(await db('email_message_events').where({ message_id: messageId, type, recipient }).first('id'));
}

/** The outcome's row, and on the email the first time of its kind and the latest outcome. */
export async function insertOutcome(
  trx: Knex.Transaction,
  message: Pick<SentRow, 'id' | 'account_id'>,
  outcome: { type: OutcomeEventType; recipient: string; detail: Record<string, unknown> },
  at: Date,
): Promise<void> {
  await trx('email_message_events').insert({
    account_id: message.account_id,
    message_id: message.id,
    type: outcome.type,
    recipient: outcome.recipient,
    detail: JSON.stringify(outcome.detail),
    occurred_at: at,
  });
  const column = OUTCOME_COLUMN[outcome.type];
  await trx('email_messages')
    .where({ id: message.id })
    .update({ [column]: trx.raw('coalesce(??, ?)', [column, at]), last_event: outcome.type, updated_at: trx.fn.now() });
}

/** A test key's send whose outcomes are simulated: stored `simulated`, sent at `sentAt`. */
export async function insertSimulated(trx: Knex.Transaction, accountId: string, keyId: string, message: PreparedMessage, sentAt: Date) {
  await trx('email_messages').insert({
    ...messageRow(accountId, keyId, message),
    status: 'simulated',
    sent_at: sentAt,
    created_at: message.createdAt,
  });
}

export async function outcomeTimes(db: Knex, accountId: string, messageId: string): Promise<OutcomeTimes | undefined> {
  return db('email_messages')
    .where({ account_id: accountId, id: messageId })
    .first('status', 'sent_at', 'delivered_at', 'bounced_at', 'complained_at', 'delayed_at', 'last_event');
}

export async function outcomeRows(db: Knex, accountId: string, messageId: string): Promise<OutcomeRow[]> {
  return db('email_message_events')
    .where({ account_id: accountId, message_id: messageId })
    .orderBy([{ column: 'occurred_at' }, { column: 'id' }])
    .select('type', 'recipient', 'detail', 'occurred_at');
}
