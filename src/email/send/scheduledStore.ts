import type { Knex } from '../../db/knex';
import type { PreparedMessage } from './prepare';
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
    payload: JSON.stringify(message),
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

/** Takes a due `scheduled` message for sending (`sending`); undefined when it was cancelled, moved or taken. */
export async function claimDue(db: Knex, accountId: string, id: string): Promise<PreparedMessage | undefined> {
  const rows: Array<{ payload: PreparedMessage & { createdAt: string } }> = await db('email_messages')
    .where({ account_id: accountId, id, status: 'scheduled' })
    .where('scheduled_at', '<=', db.fn.now())
    .update({ status: 'sending', updated_at: db.fn.now() })
    .returning(['payload']);
  if (rows.length === 0) return undefined;
  return { ...rows[0].payload, createdAt: new Date(rows[0].payload.createdAt) };
}

/** A test key's message at its time: simulated, never relayed. */
export async function markSimulated(db: Knex, accountId: string, id: string, at: Date): Promise<void> {
  await db('email_messages')
    .where({ account_id: accountId, id })
    .update({ status: 'simulated', sent_at: at, payload: null, updated_at: db.fn.now() });
}
