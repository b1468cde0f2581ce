import type { Knex } from '../../db/knex';
import type { Tag } from '../send/schema';
import type { UnsubscribeTarget } from './token';

/** What an unsubscribe did: suppressed the address now, found it already suppressed, or found no such account. */
export type SuppressOutcome = 'suppressed' | 'already' | 'no_account';

/**
 * Suppresses the recipient for the account (reason `unsubscribe`), linked to the email when it is still stored; an
 * address already on the list keeps its first entry.
 */
export async function suppressUnsubscribed(db: Knex, target: UnsubscribeTarget): Promise<SuppressOutcome> {
  const { rows } = await db.raw(
    `insert into email_suppressions (account_id, email, reason, message_id)
     select a.id, ?, 'unsubscribe', m.id
       from accounts a
       left join email_messages m on m.id = ? and m.account_id = a.id
      where a.id = ?
     on conflict (account_id, email) do nothing
     returning email`,
    [target.recipient, target.emailId, target.accountId],
  );
  if (rows.length > 0) return 'suppressed';
  const account = await db('accounts').where({ id: target.accountId }).first('id');
  return account ? 'already' : 'no_account';
}

export interface UnsubscribedEmail {
  smtp_message_id: string | null;
  from_address: string;
  subject: string;
  tags: Tag[];
}

/** The email a link came in, while it is stored (a test key's simulated sends never are). */
export async function unsubscribedEmail(db: Knex, target: UnsubscribeTarget): Promise<UnsubscribedEmail | undefined> {
  return db('email_messages')
    .where({ account_id: target.accountId, id: target.emailId })
    .first('smtp_message_id', 'from_address', 'subject', 'tags');
}
