import type { Knex } from '../../db/knex';
import { raiseInboxItem } from '../../inbox/service';
import type { TriggerName } from '../../triggers/outbox';
import { bridgeOrderToCrm, type BridgeResult } from './bridge';
import { readOrder } from './orderPayload';
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

/**
 * The one order-ingestion path, shared by the webhook handler and the backfill (doc3): upsert the log row by
 * (connection, order_id), then the CRM bridge, then the triggers — all in one transaction under the account's order
 * lock, so concurrent or out-of-order deliveries of one order end in the newest state with exact rollups.
 *
 * Bridge errors are swallowed: the bridge runs in a savepoint; on failure it is rolled back, the error is recorded on
 * the log row and raised as a deduplicated inbox item, and the log row and triggers still commit. An unusable
 * payload (no id, no decimal total) answers `invalid` without writing. Only infrastructure failures (the database
 * unreachable) throw, for the caller to retry.
 */
export async function ingestOrder(db: Knex, input: IngestOrderInput): Promise<IngestOrderResult> {
  const reading = readOrder(input.order);
  if (!reading.ok) return { outcome: 'invalid', reason: reading.reason };
  const { order } = reading;
  const { accountId, connectionId, topic } = input;

  return db.transaction(async (trx) => {
    await store.lockAccountOrders(trx, accountId);
    const written = await store.upsertOrder(trx, accountId, connectionId, order, input.order, topic);
    const applied = written !== undefined;
    let row = written ?? (await store.findOrder(trx, accountId, connectionId, order.orderId));
    if (!row) throw new Error(`order ${order.orderId} is logged under another account`);

    let bridge: BridgeResult = { contactId: row.crm_contact_id, firstOrder: row.first_order };
    let bridgeError: string | null = null;
    // A redacted order is not bridged again: that would recreate the contact the redaction removed.
    if (applied && !row.redacted_at) {
      try {
        bridge = await trx.transaction((savepoint) => bridgeOrderToCrm(savepoint, accountId, row!, order));
        if (row.bridge_error !== null) await store.recordBridgeOutcome(trx, accountId, row.id, null);
      } catch (err) {
        bridgeError = describeBridgeError(err);
        await recordBridgeFailure(trx, accountId, connectionId, order.orderId, row.id, bridgeError);
      }
      row = (await store.findOrder(trx, accountId, connectionId, order.orderId))!;
    }

    const triggers = await writeOrderTriggers(trx, accountId, row, topic, applied);
    return {
      outcome: applied ? 'ingested' : 'stale', orderId: order.orderId, contactId: bridge.contactId, firstOrder: bridge.firstOrder, triggers, bridgeError,
    } as const;
  });
}

/** A short, stable account of the failure: a database error keeps its SQLSTATE and message, not the statement knex prefixes. */
function describeBridgeError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const text = typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? `${e.code}: ${message.split(' - ').at(-1)}` : `${typeof e?.name === 'string' ? e.name : 'Error'}: ${message}`;
  return text.slice(0, MAX_ERROR_LENGTH);
}

async function recordBridgeFailure(trx: Knex, accountId: string, connectionId: string, orderId: string, logId: string, error: string): Promise<void> {
  await store.recordBridgeOutcome(trx, accountId, logId, error);
  await raiseInboxItem(trx, accountId, {
    kind: 'commerce_order_bridge_failed',
    urgency: 'normal',
    dedupKey: `commerce:order-bridge-failed:${connectionId}`,
    title: 'A shop order was logged but could not be added to the CRM',
    body: { connection_id: connectionId, order_id: orderId, error },
  });
}
