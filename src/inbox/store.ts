import type { Knex } from '../db/knex';
import { offsetOf, type Page } from '../http/pagination';

export type InboxUrgency = 'low' | 'normal' | 'urgent';

export interface InboxItemRow {
  id: string;
  account_id: string;
  kind: string;
  urgency: InboxUrgency;
  dedup_key: string | null;
  title: string;
  body: Record<string, unknown>;
  created_at: Date;
  resolved_at: Date | null;
}

export interface InboxFilter {
  urgency?: InboxUrgency;
  resolved?: boolean;
  kind?: string;
}

export type NewInboxItem = Pick<InboxItemRow, 'kind' | 'urgency' | 'dedup_key' | 'title' | 'body'>;

/**
 * Inserts an item unless an open item with the same dedup key exists (the partial unique index
 * `inbox_items_open_dedup`); answers the inserted row, or undefined when the key was taken.
 */
export async function insertItem(db: Knex, accountId: string, item: NewInboxItem): Promise<InboxItemRow | undefined> {
  const result = await db.raw(
    `insert into inbox_items (account_id, kind, urgency, dedup_key, title, body) values (?, ?, ?, ?, ?, ?::jsonb)
     on conflict (account_id, dedup_key) where resolved_at is null and dedup_key is not null do nothing
     returning *`,
    [accountId, item.kind, item.urgency, item.dedup_key, item.title, JSON.stringify(item.body)],
  );
  return result.rows[0];
}

/** The newest item with this dedup key, open or resolved. */
export async function findItemByDedupKey(db: Knex, accountId: string, dedupKey: string): Promise<InboxItemRow | undefined> {
  return db('inbox_items').where({ account_id: accountId, dedup_key: dedupKey }).orderBy('created_at', 'desc').first();
}

export async function findOpenItemByDedupKey(db: Knex, accountId: string, dedupKey: string): Promise<InboxItemRow | undefined> {
  return db('inbox_items').where({ account_id: accountId, dedup_key: dedupKey }).whereNull('resolved_at').first();
}

function filteredItems(db: Knex, accountId: string, f: InboxFilter): Knex.QueryBuilder {
  const q = db('inbox_items').where('account_id', accountId);
  if (f.urgency) q.where('urgency', f.urgency);
  if (f.kind) q.where('kind', f.kind);
  if (f.resolved === true) q.whereNotNull('resolved_at');
  if (f.resolved === false) q.whereNull('resolved_at');
  return q;
}

/** Newest first (the `(account_id, created_at)` index), ties broken by id so pages never overlap. */
export async function listItems(db: Knex, accountId: string, filter: InboxFilter, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    filteredItems(db, accountId, filter)
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<InboxItemRow[]>,
    filteredItems(db, accountId, filter).count({ count: '*' }) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}

/** Stamps resolved_at once; a resolved item keeps its first stamp. Undefined when the item is not the account's. */
export async function resolveItem(db: Knex, accountId: string, id: string): Promise<InboxItemRow | undefined> {
  const [row] = await db('inbox_items')
    .where({ account_id: accountId, id })
    .update({ resolved_at: db.raw('coalesce(resolved_at, now())') })
    .returning('*');
  return row;
}

/** Empties the bodies of the items of `kind` made for these requests (`body.compliance_request_id`), keeping which request each was for. */
export async function emptyRequestItems(db: Knex, accountId: string, kind: string, requestIds: string[], hint: string): Promise<void> {
  if (requestIds.length === 0) return;
  await db.raw(
    `update inbox_items set body = jsonb_build_object('compliance_request_id', body->'compliance_request_id', 'shop_domain', body->'shop_domain',
       'redacted', true, 'hint', ?::text)
     where account_id = ? and kind = ? and body->>'compliance_request_id' = any(?::text[])`,
    [hint, accountId, kind, requestIds],
  );
}

/**
 * Nulls `customer_id` in the bodies of the connection's items (`body.connection_id`) and the `error` of its items of
 * `errorKind` (an error may quote a person); everything else in them stays.
 */
export async function scrubConnectionItems(db: Knex, accountId: string, connectionId: string, errorKind: string): Promise<void> {
  await db.raw(
    `update inbox_items set body = body
       || case when jsonb_exists(body, 'customer_id') then '{"customer_id": null}'::jsonb else '{}'::jsonb end
       || case when jsonb_exists(body, 'error') and kind = ? then '{"error": null}'::jsonb else '{}'::jsonb end
     where account_id = ? and body->>'connection_id' = ?
       and (body->>'customer_id' is not null or (kind = ? and body->>'error' is not null))`,
    [errorKind, accountId, connectionId, errorKind],
  );
}

export interface CustomerItems {
  connectionId: string | null;
  /** The platform's customer id: the connection's items naming it lose it. */
  customerId: string | null;
  /** Items raised about these privacy requests (`body.compliance_request_id`) lose the customer id they name. */
  requestIds: string[];
  /** Items of `errorKind` about these orders (`body.order_id`) of the connection lose their error text. */
  orderIds: string[];
  errorKind: string;
}

/** Nulls what the account's items hold of one customer: `customer_id` where they name it, the `error` of its orders' failures. */
export async function scrubCustomerItems(db: Knex, accountId: string, c: CustomerItems): Promise<void> {
  await db.raw(
    `update inbox_items set body = body
       || case when jsonb_exists(body, 'customer_id') then '{"customer_id": null}'::jsonb else '{}'::jsonb end
       || case when kind = ? and body->>'order_id' = any(?::text[]) then '{"error": null}'::jsonb else '{}'::jsonb end
     where account_id = ? and (
       (body->>'connection_id' = ? and body->>'customer_id' = ?)
       or (body->>'compliance_request_id' = any(?::text[]) and body->>'customer_id' is not null)
       or (kind = ? and body->>'connection_id' = ? and body->>'order_id' = any(?::text[]) and body->>'error' is not null))`,
    [c.errorKind, c.orderIds, accountId, c.connectionId, c.customerId, c.requestIds, c.errorKind, c.connectionId, c.orderIds],
  );
}
