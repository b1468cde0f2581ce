import type { AppDeps } from '../../deps';
import { entityJobId } from '../../temporal/jobIds';
import { signalWithStartJob } from '../../temporal/jobs';
import { EntityOutboxRelay, type EntityOutbox, type EntityRelayOptions } from '../../temporal/entityOutboxRelay';
import { RelayWakeups } from '../../temporal/outboxRelay';
import { sitePlatformEventsContract } from '../../../workflows/sitePlatformEvents.contract';
import { claimUndispatched, findStaleSites, markDispatched, type ClaimedEvent } from './eventsStore';

/** Most events one relay pass claims. */
export const RELAY_BATCH = 500;
/**
 * Pause between passes while there is work (a burst goes out in few, larger signals: fewer workflow tasks and activity
 * calls on the machine that answers the deliveries), and when idle (a receiver's commit in this process wakes it sooner).
 */
export const RELAY_BUSY_MS = 250;
export const RELAY_IDLE_MS = 200;
/** Pause after a pass whose hand-overs failed (Temporal down): the rows wait in the table, nothing is lost. */
export const RELAY_RETRY_MS = 1_000;
/** An event handed over this long ago and still not fanned out is handed over again; checked this often. */
export const HAND_OVER_AGAIN_AFTER_MS = 60_000;
export const HAND_OVER_AGAIN_EVERY_MS = 30_000;

const TIMING = {
  batch: RELAY_BATCH,
  busyMs: RELAY_BUSY_MS,
  idleMs: RELAY_IDLE_MS,
  retryMs: RELAY_RETRY_MS,
  againAfterMs: HAND_OVER_AGAIN_AFTER_MS,
  againEveryMs: HAND_OVER_AGAIN_EVERY_MS,
};

type RelayDeps = Pick<AppDeps, 'db' | 'temporal' | 'logger'>;

interface Site {
  accountId: string;
  siteId: string;
}

const wakeups = new RelayWakeups();

/** Called by the receiver once new events are committed: every relay of this process claims them now. */
export function notifySiteEventRelays(): void {
  wakeups.notify();
}

/**
 * The relay of the inbound-event outbox (src/temporal/entityOutboxRelay.ts): the API process runs one; it hands
 * verified events to the fan-out workflow of their (account, site), which fans them out from the table.
 */
export class SiteEventRelay extends EntityOutboxRelay<ClaimedEvent, Site> {
  constructor(deps: RelayDeps, options: EntityRelayOptions = {}) {
    const outbox: EntityOutbox<ClaimedEvent, Site> = {
      label: 'site platform event',
      claim: claimUndispatched,
      markDispatched,
      entityOf: (e) => ({ accountId: e.accountId, siteId: e.siteId }),
      keyOf: (site) => `${site.accountId}:${site.siteId}`,
      signal: (site, handOver) =>
        signalWithStartJob(deps.temporal, sitePlatformEventsContract, {
          // One workflow per (account, site): a site's events fan out in arrival order, whichever connection delivered them.
          workflowId: entityJobId(sitePlatformEventsContract.jobKind, site.accountId, site.siteId),
          accountId: site.accountId,
          args: [site],
          signal: 'events',
          payload: handOver,
        }),
      findStale: (olderThanMs, limit) => findStaleSites(deps.db, olderThanMs, limit),
    };
    super(deps, wakeups, TIMING, outbox, options);
  }
}
