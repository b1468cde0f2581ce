import { fanOutEvents, recordFanOutFailure } from '../src/sitePlatform/webhooks/fanOut';
import type { ActivityDeps } from './deps';

export interface SiteEventBatch {
  accountId: string;
  siteId: string;
  /** In arrival order. */
  seqs: number[];
}

/** What one fan-out call did, in the activity's result (the per-event records are on the event rows, `fan_out`). */
export interface SiteEventBatchSummary {
  fannedOut: number;
  /** Project reaches summed over the events. */
  reached: number;
  /** Events that hit the 50-project cap. */
  capped: number;
}

/** Side effects of the site fan-out workflows (workflows/sitePlatformEvents.ts). */
export function createSitePlatformEventActivities(deps: ActivityDeps) {
  return {
    /** Fans out up to EVENTS_PER_ACTIVITY recorded events of one site, in order; events already fanned out are skipped. */
    async fanOutSitePlatformEvents(batch: SiteEventBatch): Promise<SiteEventBatchSummary> {
      const records = await fanOutEvents(deps, batch.accountId, batch.siteId, batch.seqs);
      return {
        fannedOut: records.length,
        reached: records.reduce((n, r) => n + r.projects.length, 0),
        capped: records.filter((r) => r.over_cap > 0).length,
      };
    },

    /** Records an event whose fan-out kept failing after every retry. */
    async recordSitePlatformFanOutFailure(ref: { accountId: string; siteId: string; seq: number; code: string }): Promise<void> {
      await recordFanOutFailure(deps, ref.accountId, ref.siteId, ref.seq, ref.code);
    },
  };
}
