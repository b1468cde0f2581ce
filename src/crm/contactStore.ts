import type { Knex } from '../db/knex';
import { offsetOf, type Page } from '../http/pagination';

export interface ContactRow {
  id: string;
  account_id: string;
  name: string | null;
  email: string | null;
  company: string | null;
  phone: string | null;
  tags: string[];
  notes: string | null;
  source: string;
  commerce_total_spent_cents: number;
  commerce_order_count: number;
  commerce_first_order_at: Date | null;
  commerce_first_order_id: string | null;
  commerce_last_order_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type ContactFields = Partial<Pick<ContactRow, 'name' | 'email' | 'company' | 'phone' | 'tags' | 'notes' | 'source'>>;

export type CommerceRollup = Pick<
  ContactRow,
  'commerce_total_spent_cents' | 'commerce_order_count' | 'commerce_first_order_at' | 'commerce_first_order_id' | 'commerce_last_order_at'
>;

export interface ContactFilter {
  search?: string;
  tag?: string;
}

export const EMAIL_UNIQUE_INDEX = 'crm_contacts_account_email_unique';

/** Below this many characters trigrams cannot narrow a substring search, so the search is a prefix match instead. */
export const TRIGRAM_MIN_CHARS = 3;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The filtered contacts of an account, unordered. Predicates are written to match the indexes exactly
 * (`search_text` trigrams, `lower(name)`/`lower(email)` prefixes, `tags @>`), so the planner can use them.
 */
export function filteredContacts(db: Knex, accountId: string, filter: ContactFilter): Knex.QueryBuilder {
  const q = db('crm_contacts').where('account_id', accountId);
  if (filter.search) {
    const needle = escapeLike(filter.search.toLowerCase());
    if ([...filter.search].length >= TRIGRAM_MIN_CHARS) q.whereRaw('search_text like ?', [`%${needle}%`]);
    else q.where((w) => w.whereRaw('lower(name) like ?', [`${needle}%`]).orWhereRaw('lower(email) like ?', [`${needle}%`]));
  }
  if (filter.tag !== undefined) q.whereRaw('tags @> array[?]::text[]', [filter.tag]);
  return q;
}

/** One page of contacts, newest first, as the list route runs it. */
export function contactPageQuery(db: Knex, accountId: string, filter: ContactFilter, page: Page): Knex.QueryBuilder {
  return filteredContacts(db, accountId, filter)
    .select('*')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(offsetOf(page));
}

export function contactCountQuery(db: Knex, accountId: string, filter: ContactFilter): Knex.QueryBuilder {
  return filteredContacts(db, accountId, filter).count<{ count: number }[]>({ count: '*' });
}

/**
 * A filtered page and its total in one statement: the matching rows are read once (through the trigram, prefix or
 * tag index), counted, and the page is cut from them. Two statements would run the index scan twice.
 * With no row on the page (past the end) it still answers one row carrying the total and null columns.
 */
export function filteredPageWithTotalQuery(db: Knex, accountId: string, filter: ContactFilter, page: Page): Knex.Raw {
  return db.raw(
    `with matched as materialized (?)
     select t.total, m.* from (select count(*) as total from matched) t
     left join lateral (select * from matched order by created_at desc, id desc limit ? offset ?) m on true`,
    [filteredContacts(db, accountId, filter).select('*'), page.limit, offsetOf(page)],
  );
}

export async function listContacts(db: Knex, accountId: string, filter: ContactFilter, page: Page) {
  if (filter.search === undefined && filter.tag === undefined) {
    // Unfiltered: the page walks the newest-first index and stops at `limit`; the count is an index-only scan.
    const [rows, [{ count }]] = await Promise.all([
      contactPageQuery(db, accountId, filter, page) as Promise<ContactRow[]>,
      contactCountQuery(db, accountId, filter) as unknown as Promise<{ count: number }[]>,
    ]);
    return { rows, total: Number(count) };
  }
  const result = await filteredPageWithTotalQuery(db, accountId, filter, page);
  const rows = result.rows as Array<ContactRow & { total: number }>;
  const total = rows.length ? Number(rows[0].total) : 0;
  return { rows: rows.filter((r) => r.id !== null).map(({ total: _total, ...row }) => row as ContactRow), total };
}

export async function findContact(db: Knex, accountId: string, id: string): Promise<ContactRow | undefined> {
  return db('crm_contacts').where({ account_id: accountId, id }).first();
}

/** Locks the contact against deletion until the transaction ends, so a row that references it can be written safely. */
export async function lockContact(db: Knex, accountId: string, id: string): Promise<ContactRow | undefined> {
  return db('crm_contacts').where({ account_id: accountId, id }).forKeyShare().first();
}

export async function findContactByEmail(db: Knex, accountId: string, email: string): Promise<ContactRow | undefined> {
  return db('crm_contacts').where('account_id', accountId).whereNotNull('email').whereRaw('lower(email) = lower(?)', [email]).first();
}

export async function insertContact(db: Knex, accountId: string, fields: ContactFields): Promise<ContactRow> {
  const [row] = await db('crm_contacts')
    .insert({ account_id: accountId, ...fields })
    .returning('*');
  return row;
}

export async function updateContact(db: Knex, accountId: string, id: string, fields: ContactFields): Promise<ContactRow | undefined> {
  const [row] = await db('crm_contacts')
    .where({ account_id: accountId, id })
    .update({ ...fields, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

export async function deleteContact(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db('crm_contacts').where({ account_id: accountId, id }).delete()) > 0;
}

/**
 * Creates the contact for an email, or returns the one that holds it (case-insensitively). An existing contact
 * keeps its fields; only a missing name is filled in. `created` tells the two apart (xmax is 0 on a fresh insert).
 */
export async function upsertContactByEmail(db: Knex, accountId: string, fields: ContactFields & { email: string }) {
  const result = await db.raw(
    `insert into crm_contacts (account_id, email, name, source) values (?, ?, ?, ?)
     on conflict (account_id, lower(email)) where email is not null
     do update set name = coalesce(crm_contacts.name, excluded.name),
                   updated_at = case when crm_contacts.name is null and excluded.name is not null then now() else crm_contacts.updated_at end
     returning *, (xmax = 0) as created`,
    [accountId, fields.email, fields.name ?? null, fields.source ?? 'api'],
  );
  const { created, ...row } = result.rows[0] as ContactRow & { created: boolean };
  return { contact: row as ContactRow, created };
}

export async function setCommerceRollup(db: Knex, accountId: string, id: string, rollup: CommerceRollup): Promise<ContactRow | undefined> {
  const [row] = await db('crm_contacts')
    .where({ account_id: accountId, id })
    .update({ ...rollup, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Locks the contact for a read-modify-write (NO KEY UPDATE: writers that only reference it are not blocked). */
export async function lockContactForUpdate(db: Knex, accountId: string, id: string): Promise<ContactRow | undefined> {
  return db('crm_contacts').where({ account_id: accountId, id }).forNoKeyUpdate().first();
}

/**
 * Set-based `upsertContactByEmail` for many distinct emails (distinct case-insensitively; the caller dedups) in one
 * statement, with the same rules: an existing contact keeps its fields and source, a missing name is filled in.
 */
export async function upsertContactsByEmail(
  db: Knex,
  accountId: string,
  people: Array<{ email: string; name: string | null }>,
  source: string,
) {
  if (people.length === 0) return [];
  const result = await db.raw(
    `insert into crm_contacts (account_id, email, name, source)
     select ?::uuid, p.email, p.name, ? from jsonb_to_recordset(?::jsonb) as p(email text, name text)
     on conflict (account_id, lower(email)) where email is not null
     do update set name = coalesce(crm_contacts.name, excluded.name),
                   updated_at = case when crm_contacts.name is null and excluded.name is not null then now() else crm_contacts.updated_at end
     returning *, (xmax = 0) as created`,
    [accountId, source, JSON.stringify(people)],
  );
  return (result.rows as Array<ContactRow & { created: boolean }>).map(({ created, ...row }) => ({ contact: row as ContactRow, created }));
}

/** Set-based `setCommerceRollup`: one statement for many contacts of the account. */
export async function setCommerceRollups(db: Knex, accountId: string, rollups: Array<CommerceRollup & { id: string }>): Promise<void> {
  if (rollups.length === 0) return;
  await db.raw(
    `update crm_contacts c set commerce_total_spent_cents = r.commerce_total_spent_cents, commerce_order_count = r.commerce_order_count,
       commerce_first_order_at = r.commerce_first_order_at, commerce_first_order_id = r.commerce_first_order_id,
       commerce_last_order_at = r.commerce_last_order_at, updated_at = now()
     from jsonb_to_recordset(?::jsonb) as r(id uuid, commerce_total_spent_cents bigint, commerce_order_count int,
       commerce_first_order_at timestamptz, commerce_first_order_id text, commerce_last_order_at timestamptz)
     where c.account_id = ? and c.id = r.id`,
    [JSON.stringify(rollups), accountId],
  );
}

/** Contacts by id or holding `email` (case-insensitively), id order, locked for the caller's transaction when `lock` is set. */
export async function findContactsByIdsOrEmail(
  db: Knex,
  accountId: string,
  ids: string[],
  email: string | null,
  lock: boolean,
): Promise<ContactRow[]> {
  if (ids.length === 0 && !email) return [];
  const q = db('crm_contacts')
    .where({ account_id: accountId })
    .where((w) => {
      if (ids.length) w.orWhereIn('id', ids);
      if (email) w.orWhereRaw('lower(email) = lower(?)', [email]);
    })
    .select(
      'id',
      'name',
      'email',
      'phone',
      'company',
      'tags',
      'notes',
      'source',
      'commerce_total_spent_cents',
      'commerce_order_count',
      'commerce_first_order_at',
      'commerce_first_order_id',
      'commerce_last_order_at',
      'created_at',
      'updated_at',
    )
    .orderBy('id');
  return lock ? q.forUpdate() : q;
}
