import { isTransientDbError } from '../../db/errors';
import { fanOutEvents, recordFanOutFailure, type FanOutDeps, type FanOutRecord } from './fanOut';
import { nextEvents } from './eventsStore';

export interface SiteDrainOptions {
  /** Events one batch takes. */
  batch: number;
  /** The pass ends at the first event boundary past this many milliseconds (what was done is stamped). */
  budgetMs: number;
  /**
   * Each event fanned out alone, and one whose fan-out throws something other than a database outage is recorded as
   * failed (`fan_out_failed`): how a batch that keeps failing finds the event at fault and moves on.
   */
  isolate: boolean;
}

/** What one drain pass did (the per-event records are on the event rows, `fan_out`). */
export interface SiteDrainPass {
  /** Events fanned out or recorded as failed. */
  handled: number;
  failed: number;
  /** Project reaches summed over the events. */
  reached: number;
  /** Events that hit the 50-project cap. */
  capped: number;
  /** More events may be waiting: the pass ended on its batch size or budget. */
  more: boolean;
}

/**
 * One pass over a site's inbound events: the events handed over and not fanned out yet, oldest first, in batches,
 * each fanned out and stamped (fanOut.ts; every step is idempotent, and a stamp is written once).
 */
export async function drainSiteEvents(
  deps: FanOutDeps,
  site: { accountId: string; siteId: string },
  options: SiteDrainOptions,
): Promise<SiteDrainPass> {
  const pass: SiteDrainPass = { handled: 0, failed: 0, reached: 0, capped: 0, more: false };
  const stopAt = Date.now() + options.budgetMs;
  const stop = () => Date.now() >= stopAt;
  for (;;) {
    const events = await nextEvents(deps.db, site.accountId, site.siteId, options.batch);
    let done = 0;
    if (!options.isolate) {
      const records = await fanOutEvents(deps, site.accountId, site.siteId, events, stop);
      records.forEach((record) => count(pass, record));
      done = records.length;
    } else {
      for (const event of events) {
        try {
          const [record] = await fanOutEvents(deps, site.accountId, site.siteId, [event]);
          count(pass, record);
        } catch (err) {
          if (isTransientDbError(err)) throw err;
          deps.logger.error({ accountId: site.accountId, siteId: site.siteId, seq: event.seq, err }, 'site platform event fan-out failed');
          await recordFanOutFailure(deps, site.accountId, event, 'fan_out_failed');
          pass.handled++;
          pass.failed++;
        }
        done++;
        if (stop()) break;
      }
    }
    pass.more = done < events.length || events.length === options.batch;
    // An isolated pass works one batch: the next pass goes back to whole batches.
    if (!pass.more || stop() || options.isolate) return pass;
  }
}

function count(pass: SiteDrainPass, record: FanOutRecord): void {
  pass.handled++;
  pass.reached += record.projects.length;
  if (record.over_cap > 0) pass.capped++;
}
