import type { AppDeps } from '../../deps';
import { signalWithStartJob } from '../../temporal/jobs';
import { EntityOutboxRelay, type EntityOutbox, type EntityRelayOptions } from '../../temporal/entityOutboxRelay';
import { RelayWakeups, type PassResult } from '../../temporal/outboxRelay';
import { commerceShopContract, commerceShopWorkflowId } from '../../../workflows/commerceShop.contract';
import { findStaleShops } from './drainStore';
import { claimUndispatched, markDispatched, type ClaimedDelivery } from './store';

/** Most deliveries one relay pass claims. */
export const DISPATCH_BATCH = 500;
/**
 * Pause between passes while there is work, and when idle (a receiver's commit in this process wakes it sooner). After a
 * pass of at least DISPATCH_BURST_ROWS the pause holds against wake-ups, so a burst goes out in few, larger signals
 * (fewer relay transactions, signals and workflow tasks on the machine that answers the deliveries); after a smaller
 * pass a new delivery ends it at once.
 */
export const DISPATCH_BUSY_MS = 250;
export const DISPATCH_BURST_ROWS = 20;
export const DISPATCH_IDLE_MS = 200;
/** Pause after a pass whose hand-overs failed (Temporal down): the rows wait in the table, nothing is lost. */
export const DISPATCH_RETRY_MS = 1_000;
/** A delivery handed over this long ago and still unprocessed is handed over again; checked this often. */
export const HAND_OVER_AGAIN_AFTER_MS = 60_000;
export const HAND_OVER_AGAIN_EVERY_MS = 30_000;

const TIMING = {
  batch: DISPATCH_BATCH,
  busyMs: DISPATCH_BUSY_MS,
  burstRows: DISPATCH_BURST_ROWS,
  idleMs: DISPATCH_IDLE_MS,
  retryMs: DISPATCH_RETRY_MS,
  againAfterMs: HAND_OVER_AGAIN_AFTER_MS,
  againEveryMs: HAND_OVER_AGAIN_EVERY_MS,
};

type DispatcherDeps = Pick<AppDeps, 'db' | 'temporal' | 'logger'>;

interface Shop {
  accountId: string;
  connectionId: string;
}

const wakeups = new RelayWakeups();

/** Called by the receiver once new deliveries are committed: every relay of this process claims them now. */
export function notifyDispatchers(): void {
  wakeups.notify();
}

export type { PassResult };

/**
 * The relay of the webhook outbox (src/temporal/entityOutboxRelay.ts): the API process runs one; it hands recorded
 * deliveries to their shop's workflow (`commerce-shop:<connectionId>`), which processes them from the table.
 *
 * Bound: a delivery is durable when its 200 is answered and is handed to Temporal within about one relay pass (at
 * once when the relay was idle and this process received it, within DISPATCH_BUSY_MS during a burst) while Temporal is
 * up. While Temporal is down the receiver still answers 200; rows wait in the table and flow when it returns. One
 * still unprocessed HAND_OVER_AGAIN_AFTER_MS after its hand-over is handed over again.
 */
export class DeliveryDispatcher extends EntityOutboxRelay<ClaimedDelivery, Shop> {
  constructor(deps: DispatcherDeps, options: EntityRelayOptions = {}) {
    const outbox: EntityOutbox<ClaimedDelivery, Shop> = {
      label: 'commerce delivery',
      claim: claimUndispatched,
      markDispatched,
      entityOf: (d) => ({ accountId: d.accountId, connectionId: d.connectionId }),
      keyOf: (shop) => shop.connectionId,
      signal: (shop, handOver) =>
        signalWithStartJob(deps.temporal, commerceShopContract, {
          workflowId: commerceShopWorkflowId(shop.connectionId),
          accountId: shop.accountId,
          args: [shop],
          signal: 'deliveries',
          payload: handOver,
          searchAttributes: { ConnectionId: shop.connectionId },
        }),
      findStale: (olderThanMs, limit) => findStaleShops(deps.db, olderThanMs, limit),
    };
    super(deps, wakeups, TIMING, outbox, options);
  }
}
