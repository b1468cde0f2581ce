import type { Knex } from '../../db/knex';
import type { Tag } from './schema';

export interface NewMessageRow {
  id: string;
  key_id: string;
  from_address: string;
  to_addresses: string[];
  subject: string;
  tags: Tag[];
  smtp_message_id: string;
}

/** Live sends only, recorded as `sending` before the relay gets them (a crash leaves a trace, not a silent send). */
export async function insertSending(db: Knex, accountId: string, rows: NewMessageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('email_messages').insert(rows.map((r) => ({ ...r, account_id: accountId, status: 'sending', tags: JSON.stringify(r.tags) })));
}

export async function markSent(db: Knex, accountId: string, id: string, sentAt: Date): Promise<void> {
  await db('email_messages').where({ account_id: accountId, id }).update({ status: 'sent', sent_at: sentAt, updated_at: db.fn.now() });
}

export async function markFailed(db: Knex, accountId: string, id: string, errorCode: string): Promise<void> {
  await db('email_messages').where({ account_id: accountId, id }).update({ status: 'failed', error_code: errorCode, updated_at: db.fn.now() });
}

/** A message withheld before the relay committed it never left: its row goes, as if the request never came. */
export async function deleteWithheld(db: Knex, accountId: string, id: string): Promise<void> {
  await db('email_messages').where({ account_id: accountId, id, status: 'sending' }).delete();
}
