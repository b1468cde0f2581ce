import type { Knex } from '../../db/knex';
import type { PreparedMessage } from './prepare';
import { fromPayload, toPayload } from './queueStore';
import { messageRow } from './store';

/** The SQL of scheduled sends: a `scheduled` row holds the message (`payload`) until its workflow sends it. */

export interface ScheduledRow {
  status: string;
  key_id: string | null;
  scheduled_at: Date | null;
  /** Whether `scheduled_at` has come, by the database's clock. */
  due: boolean;
}

export async function insertScheduled(
  db: Knex,
  accountId: string,
  keyId: string,
  message: PreparedMessage,
  scheduledAt: Date,
): Promise<void> {
  await db('email_messages').insert({
    ...messageRow(accountId, keyId, message),
    status: 'scheduled',
    scheduled_at: scheduledAt,
    created_at: message.createdAt,
    payload: toPayload(message),
  });
}

/** A scheduled message whose workflow never started: it goes, as if the request never came. */
export async function deleteScheduled(db: Knex, accountId: string, id: string): Promise<void> {
  await db('email_messages').where({ account_id: accountId, id, status: 'scheduled' }).delete();
}

export async function scheduledState(db: Knex, accountId: string, id: string): Promise<ScheduledRow | undefined> {
  return db('email_messages')
    .where({ account_id: accountId, id })
    .first('status', 'key_id', 'scheduled_at', db.raw('(scheduled_at is not null and scheduled_at <= now()) as due'));
}

/** Moves a still-`scheduled` message to a new time; answers the time it had, or undefined when it is not scheduled. */
export async function reschedule(db: Knex, accountId: string, id: string, at: Date): Promise<Date | undefined> {
  return db.transaction(async (trx) => {
    const row = await trx('email_messages').where({ account_id: accountId, id, status: 'scheduled' }).forUpdate().first('scheduled_at');
    if (!row) return undefined;
    await trx('email_messages').where({ account_id: accountId, id }).update({ scheduled_at: at, updated_at: trx.fn.now() });
    return row.scheduled_at as Date;
  });
}

/** Puts back the time a reschedule replaced, unless the message moved on meanwhile. */
export async function restoreSchedule(db: Knex, accountId: string, id: string, at: Date, previous: Date): Promise<void> {
  await db('email_messages').where({ account_id: accountId, id, status: 'scheduled', scheduled_at: at }).update({ scheduled_at: previous });
}

/** `scheduled` → `cancelled` (its body goes); false when it was not scheduled. */
export async function cancelScheduled(db: Knex, accountId: string, id: string): Promise<boolean> {
  const n = await db('email_messages')
    .where({ account_id: accountId, id, status: 'scheduled' })
    .update({ status: 'cancelled', payload: null, updated_at: db.fn.now() });
  return n > 0;
}

/** What a due message becomes when it is taken: handed to delivery, failed at its time, or simulated (test keys). */
export type DueTransition =
  { status: 'queued'; quotaDay: string | null; expiresAt: Date } | { status: 'failed'; errorCode: string } | { status: 'sending' };

/** Takes a due `scheduled` message; undefined when it was cancelled, moved or taken. */
export async function claimDue(db: Knex, accountId: string, id: string, next: DueTransition): Promise<PreparedMessage | undefined> {
  const columns =
    next.status === 'queued'
      ? { status: 'queued', quota_day: next.quotaDay, expires_at: next.expiresAt }
      : next.status === 'failed'
        ? { status: 'failed', error_code: next.errorCode, payload: null }
        : { status: 'sending' };
  const rows = await db('email_messages')
    .where({ account_id: accountId, id, status: 'scheduled' })
    .where('scheduled_at', '<=', db.fn.now())
    .update({ ...columns, updated_at: db.fn.now() })
    .returning(db.raw('(select payload from email_messages p where p.id = email_messages.id) as payload'));
  if (rows.length === 0) return undefined;
  return fromPayload(rows[0].payload);
}

/** A test key's message at its time: simulated, never relayed. */
export async function markSimulated(db: Knex, accountId: string, id: string, at: Date): Promise<void> {
  await db('email_messages')
    .where({ account_id: accountId, id })
    .update({ status: 'simulated', sent_at: at, payload: null, updated_at: db.fn.now() });
}
