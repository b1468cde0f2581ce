import type { Knex } from '../db/knex';
import { ApiError } from '../http/errors';
import { contactNotFound } from './errors';
import { invalidField } from '../http/fieldErrors';
import { isUniqueViolation } from '../db/errors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import * as store from './contactStore';
import type { CommerceRollup, ContactFields, ContactFilter, ContactRow } from './contactStore';

export type { ContactRow, CommerceRollup };
/** The search length from which a contact search matches anywhere (the routes describe it). */
export { TRIGRAM_MIN_CHARS } from './contactStore';

/** Trimmed, blanks dropped, first spelling of each tag kept (tags are case-sensitive). */
export function normalizeTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter((t) => t !== ''))];
}

function normalized(fields: ContactFields): ContactFields {
  return fields.tags ? { ...fields, tags: normalizeTags(fields.tags) } : fields;
}

async function emailTaken(db: Knex, accountId: string, email: string): Promise<ApiError> {
  const holder = await store.findContactByEmail(db, accountId, email);
  return new ApiError(409, 'contact_email_taken', 'another contact of this account already has this email', {
    details: holder ? { contactId: holder.id } : {},
  });
}

export async function listContacts(db: Knex, accountId: string, filter: ContactFilter, page: Page) {
  return store.listContacts(db, accountId, filter, page);
}

export async function getContact(db: Knex, accountId: string, id: string): Promise<ContactRow> {
  const row = isUuid(id) ? await store.findContact(db, accountId, id) : undefined;
  if (!row) throw contactNotFound();
  return row;
}

/** Creates a contact; at least one of name and email is required (the route checks it, the table enforces it). */
export async function createContact(db: Knex, accountId: string, fields: ContactFields): Promise<ContactRow> {
  if (!fields.name && !fields.email) throw invalidField('body.name', 'send a name or an email (at least one)');
  try {
    return await store.insertContact(db, accountId, normalized(fields));
  } catch (err) {
    if (isUniqueViolation(err, store.EMAIL_UNIQUE_INDEX)) throw await emailTaken(db, accountId, fields.email!);
    throw err;
  }
}

/** Partial update: absent fields stay, null clears; the contact must keep a name or an email. */
export async function updateContact(db: Knex, accountId: string, id: string, patch: ContactFields): Promise<ContactRow> {
  if (!isUuid(id)) throw contactNotFound();
  try {
    return await db.transaction(async (trx) => {
      const current = await store.lockContactForUpdate(trx, accountId, id);
      if (!current) throw contactNotFound();
      const name = patch.name === undefined ? current.name : patch.name;
      const email = patch.email === undefined ? current.email : patch.email;
      if (!name && !email)
        throw invalidField(patch.email === null ? 'body.email' : 'body.name', 'a contact keeps a name or an email (at least one)');
      if (Object.keys(patch).length === 0) return current;
      return (await store.updateContact(trx, accountId, id, normalized(patch)))!;
    });
  } catch (err) {
    if (isUniqueViolation(err, store.EMAIL_UNIQUE_INDEX)) throw await emailTaken(db, accountId, patch.email!);
    throw err;
  }
}

export async function deleteContact(db: Knex, accountId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await store.deleteContact(db, accountId, id))) throw contactNotFound();
}

/**
 * The contact that holds `email` (case-insensitively), created when there is none — for writers that learn of a
 * person by email (commerce orders, form submissions). An existing contact keeps its fields and source; a missing
 * name is filled in. Race-safe: concurrent calls for one email end on one contact.
 */
export async function upsertContactByEmail(
  db: Knex,
  accountId: string,
  input: { email: string; name?: string | null; source: string },
): Promise<{ contact: ContactRow; created: boolean }> {
  const email = input.email.trim();
  if (!email) throw new Error('upsertContactByEmail needs an email');
  return store.upsertContactByEmail(db, accountId, { email, name: input.name?.trim() || null, source: input.source });
}

/** Overwrites the commerce rollup columns (the commerce area computes them from its order log). */
export async function setCommerceRollup(db: Knex, accountId: string, contactId: string, rollup: CommerceRollup): Promise<ContactRow> {
  const row = await store.setCommerceRollup(db, accountId, contactId, rollup);
  if (!row) throw contactNotFound();
  return row;
}

/**
 * Adds one order to a contact's commerce rollups under a row lock, and says whether it was the contact's first
 * order as the state stood before the increment. Run it in the caller's transaction, after the caller has made
 * sure this order is new (the order log is the dedup point), so a replayed order is never counted twice.
 */
export async function applyCommerceOrder(
  db: Knex,
  accountId: string,
  contactId: string,
  order: { orderId: string; totalCents: number; orderedAt: Date },
): Promise<{ contact: ContactRow; firstOrder: boolean }> {
  const run = async (trx: Knex) => {
    const current = await store.lockContactForUpdate(trx, accountId, contactId);
    if (!current) throw contactNotFound();
    const firstOrder = current.commerce_order_count === 0;
    const first = current.commerce_first_order_at;
    const isEarliest = !first || order.orderedAt < first;
    const last = current.commerce_last_order_at;
    const contact = (await store.setCommerceRollup(trx, accountId, contactId, {
      commerce_total_spent_cents: Number(current.commerce_total_spent_cents) + order.totalCents,
      commerce_order_count: current.commerce_order_count + 1,
      commerce_first_order_at: isEarliest ? order.orderedAt : first,
      commerce_first_order_id: isEarliest ? order.orderId : current.commerce_first_order_id,
      commerce_last_order_at: !last || order.orderedAt > last ? order.orderedAt : last,
    }))!;
    return { contact, firstOrder };
  };
  return db.isTransaction ? run(db) : db.transaction(run);
}

/**
 * `upsertContactByEmail` for many people at once (one statement): emails are deduplicated case-insensitively, the
 * first spelling and the first non-empty name of each winning. Answers one entry per distinct email, keyed by its
 * lower-cased form.
 */
export async function upsertContactsByEmail(
  db: Knex,
  accountId: string,
  people: Array<{ email: string; name?: string | null }>,
  source: string,
): Promise<Map<string, { contact: ContactRow; created: boolean }>> {
  const distinct = new Map<string, { email: string; name: string | null }>();
  for (const person of people) {
    const email = person.email.trim();
    if (!email) throw new Error('upsertContactsByEmail needs an email');
    const name = person.name?.trim() || null;
    const seen = distinct.get(email.toLowerCase());
    if (!seen) distinct.set(email.toLowerCase(), { email, name });
    else if (!seen.name && name) seen.name = name;
  }
  const rows = await store.upsertContactsByEmail(db, accountId, [...distinct.values()], source);
  const byKey = new Map(rows.map((r) => [r.contact.email!.toLowerCase(), r]));
  // Postgres' lower() and JavaScript's toLowerCase() can disagree on rare characters: such an email is fetched
  // by itself (the upsert is idempotent), so every requested email is answered.
  for (const [key, person] of distinct) {
    if (!byKey.has(key)) byKey.set(key, await store.upsertContactByEmail(db, accountId, { ...person, source }));
  }
  return byKey;
}

/** `setCommerceRollup` for many contacts at once (one statement); contacts not in the account are left alone. */
export async function setCommerceRollups(db: Knex, accountId: string, rollups: Array<CommerceRollup & { id: string }>): Promise<void> {
  await store.setCommerceRollups(db, accountId, rollups);
}

/**
 * Contacts by id or holding `email` (case-insensitively), in id order; with `lock`, locked until the caller's
 * transaction ends (privacy requests read and settle them).
 */
export const findContactsByIdsOrEmail = (db: Knex, accountId: string, ids: string[], email: string | null, lock = false) =>
  store.findContactsByIdsOrEmail(db, accountId, ids, email, lock);
