import type { Knex } from '../../db/knex';
import type { PreparedMessage } from './prepare';
import { recipientsOf } from './recipients';
import type { Tag } from './schema';

/** Everyone the relay delivers the message to (suppressed recipients are skipped), in lower case. */
export const envelopeRecipients = (m: PreparedMessage): string[] => {
  const skipped = new Set((m.skipped ?? []).map((s) => s.email));
  return recipientsOf(m)
    .map((r) => r.email)
    .filter((email) => !skipped.has(email));
};

export interface MessageRow {
  id: string;
  batch_id: string | null;
  status: 'scheduled' | 'cancelled' | 'queued' | 'deferred' | 'sending' | 'sent' | 'simulated' | 'failed';
  from_address: string;
  to_addresses: string[];
  subject: string;
  tags: Tag[];
  smtp_message_id: string | null;
  error_code: string | null;
  /** Delivery attempts made, and what the relay last said when one failed. */
  attempts: number;
  last_error: Record<string, unknown> | null;
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

export async function queuedIds(db: Knex, accountId: string, batchId: string): Promise<string[]> {
  const rows = await db('email_messages')
    .where({ account_id: accountId, batch_id: batchId, status: 'queued' })
    .orderBy('batch_index')
    .select('id');
  return rows.map((r) => r.id);
}

/**
 * Settled for the key's pacing: nothing of the batch is queued, none is at the relay (a `sending` row older than an
 * attempt lasts belongs to a dead worker) and none was sent within the last second. A `deferred` message waits for
 * its own retry and holds nothing.
 */
export async function batchSettled(db: Knex, accountId: string, batchId: string): Promise<boolean> {
  const row = await db('email_messages')
    .where({ account_id: accountId, batch_id: batchId })
    .first(
      db.raw(`count(*) filter (
      where status = 'queued' or (status = 'sending' and updated_at > now() - interval '15 minutes') or updated_at > now() - interval '1 second'
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
      'attempts',
      'last_error',
      'sent_at',
      'scheduled_at',
      'created_at',
    );
}
