import { alertUrgentInboxItem } from '../alerts/service';
import type { Knex } from '../db/knex';
import { ApiError } from '../http/errors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import * as store from './store';
import type { InboxFilter, InboxItemRow, InboxUrgency } from './store';

export type { InboxItemRow, InboxUrgency, InboxFilter };

export const inboxItemNotFound = () => new ApiError(404, 'inbox_item_not_found', 'inbox item not found');

export interface RaiseInboxItem {
  kind: string;
  urgency?: InboxUrgency;
  /** One open item per key and account: raising the same key again returns the open item instead of a new one. */
  dedupKey?: string | null;
  title: string;
  body?: Record<string, unknown>;
}

/**
 * Writes an inbox item for the account — how sweeps, alerts and failed handlers tell people about a problem
 * instead of failing silently. Deduplicated on open items: while an item with the same `dedupKey` is unresolved,
 * raising it again writes nothing and answers that item with `created: false`. Once resolved, the key is free.
 * Works inside a caller's transaction.
 */
export async function raiseInboxItem(
  db: Knex,
  accountId: string,
  input: RaiseInboxItem,
): Promise<{ item: InboxItemRow; created: boolean }> {
  const row: store.NewInboxItem = {
    kind: input.kind,
    urgency: input.urgency ?? 'normal',
    dedup_key: input.dedupKey ?? null,
    title: input.title,
    body: input.body ?? {},
  };
  // Two tries: the open item that blocked the insert may be resolved before it is read back.
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await store.insertItem(db, accountId, row);
    if (inserted) {
      if (inserted.urgency === 'urgent') await alertUrgentInboxItem(db, accountId, inserted);
      return { item: inserted, created: true };
    }
    const open = await store.findOpenItemByDedupKey(db, accountId, row.dedup_key!);
    if (open) return { item: open, created: false };
  }
  throw new Error(`inbox item ${row.dedup_key} could not be raised or read back`);
}

export async function listInboxItems(db: Knex, accountId: string, filter: InboxFilter, page: Page) {
  return store.listItems(db, accountId, filter, page);
}

export async function resolveInboxItem(db: Knex, accountId: string, id: string): Promise<InboxItemRow> {
  const row = isUuid(id) ? await store.resolveItem(db, accountId, id) : undefined;
  if (!row) throw inboxItemNotFound();
  return row;
}

/** Privacy: empties the items of `kind` raised for these requests, keeping which request each was for and why (`hint`). */
export const emptyRequestItems = (db: Knex, accountId: string, kind: string, requestIds: string[], hint: string) =>
  store.emptyRequestItems(db, accountId, kind, requestIds, hint);

/** Privacy: the items naming one customer lose the customer id, and failures of the customer's orders their error text. */
export const scrubCustomerItems = (db: Knex, accountId: string, customer: store.CustomerItems) =>
  store.scrubCustomerItems(db, accountId, customer);

/** The newest item raised with this dedup key, resolved or not: for effects that must happen once, not once per open item. */
export const findInboxItemByDedupKey = (db: Knex, accountId: string, dedupKey: string) => store.findItemByDedupKey(db, accountId, dedupKey);

/** Privacy: the connection's items lose the customer id they name and, for items of `errorKind`, their error text. */
export const scrubConnectionItems = (db: Knex, accountId: string, connectionId: string, errorKind: string) =>
  store.scrubConnectionItems(db, accountId, connectionId, errorKind);
