import type { Knex } from '../../db/knex';
import { raiseInboxItem } from '../../inbox/service';
import type { TriggerName } from '../../triggers/outbox';
import { bridgeOrdersToCrm, inPlacementOrder, type BridgeItem, type BridgeResult } from './bridge';
import { readOrder, type NormalizedOrder } from './orderPayload';
import * as store from './store';
import { writeOrderTriggers, type OrderTopic } from './triggers';

export type { OrderTopic };

export interface IngestOrderInput {
  accountId: string;
  connectionId: string;
  /** The platform's order JSON, as a webhook or the orders listing carries it. */
  order: unknown;
  /** The backfill always passes `orders/updated`, so recovery never fires `commerce.order.created`. */
  topic: OrderTopic;
  /** When the order arrived (the delivery's receipt); its dates are clamped to it. Default: now. */
  receivedAt?: Date;
}

export type IngestOrderResult =
  | { outcome: 'invalid'; reason: string }
  | {
      /** `stale`: the log holds a newer state of this order; nothing but a late creation trigger was written. */
      outcome: 'ingested' | 'stale';
      orderId: string;
      contactId: string | null;
      firstOrder: boolean | null;
      /** Triggers newly written to the outbox by this call. */
      triggers: TriggerName[];
      /** The swallowed CRM-bridge failure, if any (also on the log row and in the account's inbox). */
      bridgeError: string | null;
    };

const MAX_ERROR_LENGTH = 500;

export interface IngestOrdersInput {
  accountId: string;
  connectionId: string;
  /** The platform's order JSONs, as webhooks or a page of the orders listing carry them. */
  orders: unknown[];
  /** One topic for every order, or each order's own (a shop's webhook deliveries of both order topics, in arrival order). */
  topic: OrderTopic | readonly OrderTopic[];
  /**
   * When the orders arrived — one time for all (a listing page's answer) or each order's own (each delivery's
   * receipt); their dates are clamped to it (`readOrder`). Default: now.
   */
  receivedAt?: Date | readonly Date[];
}

/**
 * The one order-ingestion path, shared by the webhook handler (`ingestOrder`, one order) and the backfill (a page
 * at a time), doc3: upsert the log rows by (connection, order_id), then the CRM bridge, then the triggers — all in
 * one transaction under the account's order lock, so concurrent or out-of-order deliveries of one order end in the
 * newest state with exact rollups. Set-based: a batch costs a constant number of statements, not a few per order.
 * An order id repeated in the batch is applied in rounds (its second occurrence after the first), as if the
 * orders came one by one.
 *
 * Bridge errors are swallowed: the bridge runs in a savepoint; when it fails, the batch is bridged again order by
 * order (each in its own savepoint, in placement order), so one bad order is rolled back, its error recorded on
 * its log row and raised as a deduplicated inbox item, while the others still bridge; log rows and triggers commit.
 * A redacted order (`redacted_at`) is never bridged again — that would recreate the contact the redaction removed.
 * A payload that is not an order (`readOrder`: no id, currency, dates or decimal total) answers `invalid` without
 * writing, and the other orders of the batch go on. Only infrastructure failures
 * (the database unreachable) throw, for the caller to retry. Answers one result per input order, in input order.
 */
export async function ingestOrders(db: Knex, input: IngestOrdersInput): Promise<IngestOrderResult[]> {
  const results: IngestOrderResult[] = new Array(input.orders.length);
  const rounds: LogItem[][] = [];
  const occurrences = new Map<string, number>();
  const topicOf = (index: number): OrderTopic => (typeof input.topic === 'string' ? input.topic : input.topic[index]);
  const now = new Date();
  const receivedAtOf = (index: number): Date =>
    input.receivedAt === undefined ? now : input.receivedAt instanceof Date ? input.receivedAt : input.receivedAt[index];
  input.orders.forEach((payload, index) => {
    const reading = readOrder(payload, receivedAtOf(index));
    if (!reading.ok) {
      results[index] = { outcome: 'invalid', reason: reading.reason };
      return;
    }
    const round = occurrences.get(reading.order.orderId) ?? 0;
    occurrences.set(reading.order.orderId, round + 1);
    (rounds[round] ??= []).push({ index, order: reading.order, payload, topic: topicOf(index) });
  });
  if (rounds.length === 0) return results;

  await db.transaction(async (trx) => {
    await store.lockAccountOrders(trx, input.accountId);
    for (const round of rounds) await ingestRound(trx, input, round, results);
  });
  return results;
}

/** One order through `ingestOrders`. */
export async function ingestOrder(db: Knex, input: IngestOrderInput): Promise<IngestOrderResult> {
  const [result] = await ingestOrders(db, {
    accountId: input.accountId,
    connectionId: input.connectionId,
    orders: [input.order],
    topic: input.topic,
    receivedAt: input.receivedAt,
  });
  return result;
}

interface LogItem {
  index: number;
  order: NormalizedOrder;
  payload: unknown;
  topic: OrderTopic;
}

/** Orders with distinct ids: log, bridge, triggers. */
async function ingestRound(trx: Knex, input: IngestOrdersInput, items: LogItem[], results: IngestOrderResult[]): Promise<void> {
  const { accountId, connectionId } = input;
  const written = new Map((await store.upsertOrders(trx, accountId, connectionId, items)).map((row) => [row.order_id, row]));
  const staleIds = items.filter((i) => !written.has(i.order.orderId)).map((i) => i.order.orderId);
  const stale = new Map((await store.findOrders(trx, accountId, connectionId, staleIds)).map((row) => [row.order_id, row]));
  for (const id of staleIds) if (!stale.has(id)) throw new Error(`order ${id} is logged under another account`);

  const toBridge = items.flatMap(({ order }) => {
    const row = written.get(order.orderId);
    return row && !row.redacted_at ? [{ row, order }] : [];
  });
  const { bridged, failed } = await bridgeWithFallback(trx, accountId, connectionId, toBridge);

  const rows = items.map(({ order, topic }) => {
    const row = written.get(order.orderId) ?? stale.get(order.orderId)!;
    const outcome = bridged.get(row.id);
    if (outcome?.linked) Object.assign(row, { crm_contact_id: outcome.contactId, first_order: outcome.firstOrder });
    return { row, applied: written.has(order.orderId), topic };
  });
  const triggers = await writeOrderTriggers(trx, accountId, rows);

  items.forEach(({ index, order }, i) => {
    const { row, applied } = rows[i];
    const outcome = bridged.get(row.id);
    results[index] = {
      outcome: applied ? 'ingested' : 'stale',
      orderId: order.orderId,
      contactId: outcome ? outcome.contactId : row.crm_contact_id,
      firstOrder: outcome ? outcome.firstOrder : row.first_order,
      triggers: triggers.get(order.orderId) ?? [],
      bridgeError: failed.get(row.id) ?? null,
    };
  });
}

/**
 * The set-based bridge in a savepoint; should it fail, order by order, each in its own savepoint, so only the bad
 * orders fail. A failure is recorded on its row and in the inbox; a success clears an earlier recorded failure.
 */
async function bridgeWithFallback(trx: Knex, accountId: string, connectionId: string, items: BridgeItem[]) {
  const bridged = new Map<string, BridgeResult>();
  const failed = new Map<string, string>();
  if (items.length === 0) return { bridged, failed };
  try {
    for (const [id, result] of await trx.transaction((savepoint) => bridgeOrdersToCrm(savepoint, accountId, items)))
      bridged.set(id, result);
  } catch (err) {
    if (items.length === 1) failed.set(items[0].row.id, describeBridgeError(err));
    else {
      for (const item of inPlacementOrder(items)) {
        try {
          const [[id, result]] = await trx.transaction((savepoint) => bridgeOrdersToCrm(savepoint, accountId, [item]));
          bridged.set(id, result);
        } catch (itemErr) {
          failed.set(item.row.id, describeBridgeError(itemErr));
        }
      }
    }
  }
  for (const item of items) {
    const error = failed.get(item.row.id);
    if (error) await recordBridgeFailure(trx, accountId, connectionId, item.order.orderId, item.row.id, error);
  }
  await store.clearBridgeErrors(
    trx,
    accountId,
    items.filter((i) => bridged.has(i.row.id) && i.row.bridge_error !== null).map((i) => i.row.id),
  );
  for (const item of items) {
    if (bridged.has(item.row.id)) Object.assign(item.row, { bridge_error: null, bridge_failed_at: null });
    else Object.assign(item.row, { bridge_error: failed.get(item.row.id) });
  }
  return { bridged, failed };
}

/** A short, stable account of the failure: a database error keeps its SQLSTATE and message, not the statement knex prefixes. */
function describeBridgeError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const text =
    typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)
      ? `${e.code}: ${message.split(' - ').at(-1)}`
      : `${typeof e?.name === 'string' ? e.name : 'Error'}: ${message}`;
  return text.slice(0, MAX_ERROR_LENGTH);
}

async function recordBridgeFailure(
  trx: Knex,
  accountId: string,
  connectionId: string,
  orderId: string,
  logId: string,
  error: string,
): Promise<void> {
  await store.recordBridgeOutcome(trx, accountId, logId, error);
  await raiseInboxItem(trx, accountId, {
    kind: 'commerce_order_bridge_failed',
    urgency: 'normal',
    dedupKey: `commerce:order-bridge-failed:${connectionId}`,
    title: 'A shop order was logged but could not be added to the CRM',
    body: { connection_id: connectionId, order_id: orderId, error },
  });
}
