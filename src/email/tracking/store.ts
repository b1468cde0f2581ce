import type { Knex } from '../../db/knex';
import type { Tag } from '../send/schema';

/**
 * The tracked links of a message, stored once at its first delivery attempt; a later attempt (or a concurrent one for
 * another recipient) gets the list already stored, so every copy's link indexes name the same URLs.
 */
export async function saveTrackedLinks(db: Knex, accountId: string, messageId: string, links: string[]): Promise<string[]> {
  const [added] = await db('email_tracking_links')
    .insert({ message_id: messageId, account_id: accountId, links })
    .onConflict('message_id')
    .ignore()
    .returning('links');
  if (added) return added.links as string[];
  const stored = await db('email_tracking_links').where({ message_id: messageId }).first('links');
  return (stored?.links as string[] | undefined) ?? [];
}

/** The URL of the message's tracked link `index`, or undefined. */
export async function trackedLink(db: Knex, accountId: string, messageId: string, index: number): Promise<string | undefined> {
  const { rows } = await db.raw('select links[?::int] as url from email_tracking_links where account_id = ? and message_id = ?', [
    index + 1,
    accountId,
    messageId,
  ]);
  return (rows[0]?.url as string | null | undefined) ?? undefined;
}

export interface TrackedEmail {
  smtp_message_id: string | null;
  from_address: string;
  to_addresses: string[];
  subject: string;
  tags: Tag[];
  /** Every envelope recipient, lower case. */
  recipients: string[];
}

/** The email a token names, with its recipients, while it is stored. */
export async function trackedEmail(db: Knex, accountId: string, messageId: string): Promise<TrackedEmail | undefined> {
  const row = await db('email_messages')
    .where({ account_id: accountId, id: messageId })
    .first('smtp_message_id', 'from_address', 'to_addresses', 'subject', 'tags', 'recipients');
  if (!row) return undefined;
  const recipients: string[] = row.recipients ?? row.to_addresses;
  return { ...row, recipients: recipients.map((r) => r.toLowerCase()) };
}

export interface Hit {
  accountId: string;
  messageId: string;
  recipient: string;
  /** Clicks only. */
  link?: number;
}

const COUNT_OPEN = `
  insert into email_tracking_opens (message_id, account_id, recipient) values (?, ?, ?)
  on conflict (message_id, recipient) do update set count = email_tracking_opens.count + 1, last_at = now()
  returning (xmax = 0) as inserted`;

const COUNT_CLICK = `
  insert into email_tracking_clicks (message_id, account_id, recipient, link) values (?, ?, ?, ?)
  on conflict (message_id, recipient, link) do update set count = email_tracking_clicks.count + 1, last_at = now()
  returning (xmax = 0) as inserted`;

/** Counts one open, or one click of a link; true when it is the recipient's first (of that link). */
export async function countHit(db: Knex, hit: Hit): Promise<boolean> {
  const { rows } =
    hit.link === undefined
      ? await db.raw(COUNT_OPEN, [hit.messageId, hit.accountId, hit.recipient])
      : await db.raw(COUNT_CLICK, [hit.messageId, hit.accountId, hit.recipient, hit.link]);
  return rows[0].inserted === true;
}

export interface OpenRow {
  recipient: string;
  first_at: Date;
  last_at: Date;
  count: number;
}

export interface ClickRow extends OpenRow {
  link: number;
  url: string | null;
}

/** The opens and clicks of an email of the account, oldest first. */
export async function engagementOf(db: Knex, accountId: string, messageId: string): Promise<{ opens: OpenRow[]; clicks: ClickRow[] }> {
  const [opens, clicks] = await Promise.all([
    db('email_tracking_opens')
      .where({ account_id: accountId, message_id: messageId })
      .orderBy([{ column: 'first_at' }, { column: 'recipient' }])
      .select('recipient', 'first_at', 'last_at', 'count') as Promise<OpenRow[]>,
    db('email_tracking_clicks as c')
      .leftJoin('email_tracking_links as l', 'l.message_id', 'c.message_id')
      .where({ 'c.account_id': accountId, 'c.message_id': messageId })
      .orderBy([{ column: 'c.first_at' }, { column: 'c.recipient' }, { column: 'c.link' }])
      .select('c.recipient', 'c.link', 'c.first_at', 'c.last_at', 'c.count', db.raw('l.links[c.link + 1] as url')) as Promise<ClickRow[]>,
  ]);
  return { opens, clicks };
}

/** Whether the account has the email (any state). */
export async function emailExists(db: Knex, accountId: string, messageId: string): Promise<boolean> {
  return Boolean(await db('email_messages').where({ account_id: accountId, id: messageId }).first('id'));
}
