import { ApiError } from '../../http/errors';
import { raiseInboxItem } from '../../inbox/service';
import { ORDERS_PAGE_MAX } from '../../clients/commerce/client';
import type { Knex } from '../../db/knex';
import { commerceClientOf, type CommerceDeps } from '../connections/deps';
import { findConnection } from '../connections/store';
import { shopAccessOf } from '../connections/tokens';
import { readOrder } from '../ingestion/orderPayload';
import { ingestOrders } from '../ingestion/service';
import * as store from './store';

/** Without a logged order the backfill looks back this far (doc3 "backfill window"). */
export const DEFAULT_WINDOW_MS = 48 * 3600_000;

export interface BackfillPageInput {
  accountId: string;
  connectionId: string;
  /** First page only: the window start; absent, it is computed (`backfillWindowStart`). */
  updatedAtMin?: string | null;
  /** The cursor of a later page (`nextPageInfo` of the previous one); it carries the window. */
  pageInfo?: string | null;
  /** Orders per page, 1–250. */
  limit: number;
}

export interface BackfillPageResult {
  /** Orders the platform listed on this page. */
  fetched: number;
  /** Orders that went through the shared ingestion path and were written. */
  ingested: number;
  /** Orders the log already holds in this version (or a newer one): skipped, ingesting them would change nothing. */
  unchanged: number;
  /** Orders ingestion refused (no id, no decimal total). */
  invalid: number;
  /** Ingested orders whose CRM bridge failed (logged anyway; reported in the account's inbox by ingestion). */
  bridgeErrors: number;
  nextPageInfo: string | null;
  /** The newest `updated_at` on this page (ISO), for progress and the summary. */
  newestUpdatedAt: string | null;
  /** The window start the first page was listed from (ISO); null on later pages. */
  windowStart: string | null;
}

export interface PageHooks {
  /** Called when the page is ingested, with the number of orders handled (activities heartbeat with it). */
  onProgress?: (handled: number) => void;
  /** Aborts the page before its commit; the page's transaction rolls back. */
  signal?: AbortSignal;
}

/** Since the newest logged order of the connection (its platform `updated_at`), else the last 48 hours. */
export async function backfillWindowStart(db: Knex, accountId: string, connectionId: string, now = Date.now()): Promise<Date> {
  return (await store.newestLoggedUpdate(db, accountId, connectionId)) ?? new Date(now - DEFAULT_WINDOW_MS);
}

export async function listBackfillConnections(db: Knex, afterId: string | null, limit: number) {
  return store.listActiveConnections(db, afterId, limit);
}

/**
 * One page of the backfill: list the shop's orders (status any, oldest update first, so a run cut short leaves
 * the log's newest `updated_at` a true watermark for the next one), then ingest each through the shared path
 * with topic `orders/updated` — recovery never fires `commerce.order.created`.
 *
 * The page is ingested in one transaction with one set-based `ingestOrders` call (a constant number of
 * statements per page, not per order); orders the log already holds in this version, bridged, are skipped first.
 * A page cancelled before its commit leaves nothing behind to redo differently.
 */
export async function backfillPage(deps: CommerceDeps, input: BackfillPageInput, hooks: PageHooks = {}): Promise<BackfillPageResult> {
  const { accountId, connectionId } = input;
  const connection = await findConnection(deps.db, accountId, connectionId);
  if (!connection) throw new ApiError(404, 'commerce_connection_not_found', 'no commerce connection with this id in the account');
  const shop = await shopAccessOf(deps, connection);
  const limit = Math.min(Math.max(Math.trunc(input.limit), 1), ORDERS_PAGE_MAX);

  let windowStart: Date | null = null;
  if (!input.pageInfo)
    windowStart = input.updatedAtMin ? new Date(input.updatedAtMin) : await backfillWindowStart(deps.db, accountId, connectionId);
  const page = await commerceClientOf(deps).listOrders(
    shop,
    input.pageInfo ? { pageInfo: input.pageInfo, limit } : { updatedAtMin: windowStart!, limit, order: 'updated_at asc' },
  );

  // The page's answer is when its orders arrived: no order on it is dated later (`readOrder`).
  const receivedAt = new Date();
  const counts = await deps.db.transaction((trx) => ingestPage(trx, { accountId, connectionId, receivedAt }, page.orders, hooks));
  return { ...counts, nextPageInfo: page.nextPageInfo, windowStart: windowStart?.toISOString() ?? null };
}

interface PageSource {
  accountId: string;
  connectionId: string;
  receivedAt: Date;
}

async function ingestPage(trx: Knex, { accountId, connectionId, receivedAt }: PageSource, orders: unknown[], hooks: PageHooks) {
  const readings = orders.map((order) => ({ order, reading: readOrder(order, receivedAt) }));
  const ids = readings.flatMap(({ reading }) => (reading.ok ? [reading.order.orderId] : []));
  const logged = await store.loggedVersions(trx, accountId, connectionId, ids);
  const counts = { fetched: orders.length, ingested: 0, unchanged: 0, invalid: 0, bridgeErrors: 0 };
  let newest: Date | null = null;

  const toIngest: unknown[] = [];
  for (const { order, reading } of readings) {
    if (reading.ok && (!newest || reading.order.updatedAt > newest)) newest = reading.order.updatedAt;
    if (reading.ok && isCurrent(logged.get(reading.order.orderId), reading.order.updatedAt, order)) counts.unchanged++;
    else toIngest.push(order);
  }
  hooks.signal?.throwIfAborted();
  const results = await ingestOrders(trx, { accountId, connectionId, orders: toIngest, topic: 'orders/updated', receivedAt });
  for (const result of results) {
    if (result.outcome === 'invalid') counts.invalid++;
    else if (result.outcome === 'stale') counts.unchanged++;
    else {
      counts.ingested++;
      if (result.bridgeError) counts.bridgeErrors++;
    }
  }
  hooks.signal?.throwIfAborted();
  hooks.onProgress?.(orders.length);
  return { ...counts, newestUpdatedAt: newest?.toISOString() ?? null };
}

/**
 * The log holds this version (the same platform stamp, however it was clamped) or a newer one, and its CRM bridge
 * went through: ingesting again would change nothing.
 */
function isCurrent(logged: store.LoggedVersion | undefined, updatedAt: Date, payload: unknown): boolean {
  if (!logged || logged.bridgeError !== null || !logged.updatedAt) return false;
  if (logged.stamp !== null && logged.stamp === (payload as { updated_at?: unknown }).updated_at) return true;
  return logged.updatedAt.getTime() >= updatedAt.getTime();
}

export interface BackfillFailure {
  accountId: string;
  connectionId: string;
  shopDomain: string;
  code: string;
  message: string;
}

/** A shop whose backfill failed after its retries: one open inbox item per connection, however many hours it keeps failing. */
export async function reportBackfillFailure(db: Knex, failure: BackfillFailure): Promise<{ inboxItemId: string; created: boolean }> {
  const { item, created } = await raiseInboxItem(db, failure.accountId, {
    kind: 'commerce_order_backfill_failed',
    urgency: 'normal',
    dedupKey: `commerce:order-backfill-failed:${failure.connectionId}`,
    title: `Missed orders of ${failure.shopDomain} could not be recovered`,
    body: {
      connection_id: failure.connectionId,
      shop_domain: failure.shopDomain,
      code: failure.code,
      error: failure.message.slice(0, 500),
    },
  });
  return { inboxItemId: item.id, created };
}
