import { ActivityFailure, condition, log, makeContinueAsNewFunc, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { siteEventsSignal, type SitePlatformEventsInput, type SitePlatformEventsResult } from './sitePlatformEvents.contract';
import { trackProgress } from './progress';

const { fanOutSitePlatformEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // What throws is infrastructure (the database); platform refusals are recorded on the event, not thrown.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});
const { recordSitePlatformFanOutFailure } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 20 },
});

export const DEFAULT_EVENTS_PER_RUN = 10_000;
/** Events one activity call fans out, in arrival order. */
export const EVENTS_PER_ACTIVITY = 200;
/** A site silent this long closes its run; its next event's signal-with-start opens a new one. */
const IDLE_CLOSE = '10 minutes';
/** Seqs remembered, so a re-sent signal (relay commit lost after the signal) is ignored. */
const RECENT_SEQS = 2000;

/**
 * The fan-out entity workflow of one (account, site) (`site-platform-events:<accountId>:<siteId>`): the relay signals
 * batches of recorded events by seq (signal-with-start), and this run fans them out in arrival order, up to
 * EVENTS_PER_ACTIVITY per activity call (bound projects, at most 50: CMS snapshots marked stale, the page index of
 * external bindings refreshed, form submissions processed). A batch that keeps failing is worked one event at a time
 * and an event that still fails is recorded as failed, so one bad event never blocks the site. History stays short:
 * after `maxEventsPerRun` events, or when Temporal suggests it, the run continues as new with what is pending.
 */
export async function sitePlatformEvents(input: SitePlatformEventsInput): Promise<SitePlatformEventsResult> {
  const pending: number[] = [...(input.pending ?? [])];
  const queued = new Set(pending);
  const recent: number[] = [...(input.recent ?? [])];
  const recentSet = new Set(recent);
  setHandler(siteEventsSignal, ({ seqs }) => {
    for (const seq of seqs) {
      if (queued.has(seq) || recentSet.has(seq)) continue;
      queued.add(seq);
      pending.push(seq);
    }
  });
  const remember = (seqs: number[]) => {
    for (const seq of seqs) {
      queued.delete(seq);
      recent.push(seq);
      recentSet.add(seq);
    }
    while (recent.length > RECENT_SEQS) recentSet.delete(recent.shift()!);
  };
  const progress = trackProgress('idle');
  progress.advance(input.processed ?? 0);
  const perRun = input.maxEventsPerRun ?? DEFAULT_EVENTS_PER_RUN;
  let processedThisRun = 0;

  for (;;) {
    const woken = await condition(() => pending.length > 0, IDLE_CLOSE);
    // A signal delivered in the same activation as the idle timer is already in `pending`: never close on it.
    if (!woken && pending.length === 0) return { processed: progress.current.done };
    progress.current.phase = 'fanning_out';
    while (pending.length > 0) {
      const batch = pending.splice(0, Math.min(EVENTS_PER_ACTIVITY, Math.max(1, perRun - processedThisRun)));
      await fanOutBatch(input, batch, progress.warn);
      remember(batch);
      progress.advance(batch.length);
      processedThisRun += batch.length;
      if (processedThisRun >= perRun || workflowInfo().continueAsNewSuggested) {
        const next = makeContinueAsNewFunc<typeof sitePlatformEvents>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
        return next({ ...input, pending: [...pending], recent: recent.slice(-RECENT_SEQS), processed: progress.current.done });
      }
    }
    progress.current.phase = 'idle';
  }
}

async function fanOutBatch(input: SitePlatformEventsInput, seqs: number[], warn: (message: string) => void): Promise<void> {
  const ref = { accountId: input.accountId, siteId: input.siteId };
  try {
    await fanOutSitePlatformEvents({ ...ref, seqs });
    return;
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
  }
  for (const seq of seqs) {
    try {
      await fanOutSitePlatformEvents({ ...ref, seqs: [seq] });
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      // Retries are spent: the event is recorded as failed and the site's stream moves on.
      log.warn('site platform event fan-out failed after retries', { siteId: input.siteId, seq });
      warn(`event ${seq} failed`);
      try {
        await recordSitePlatformFanOutFailure({ ...ref, seq, code: 'fan_out_failed' });
      } catch (recordErr) {
        if (!(recordErr instanceof ActivityFailure)) throw recordErr;
        log.error('site platform fan-out failure could not be recorded', { siteId: input.siteId, seq });
      }
    }
  }
}
