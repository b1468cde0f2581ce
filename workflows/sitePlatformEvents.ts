import { makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  EVENTS_PER_BATCH,
  siteEventsSignal,
  SITE_PASS_BUDGET_MS,
  type SitePlatformEventsInput,
  type SitePlatformEventsResult,
} from './sitePlatformEvents.contract';
import { drainOutbox } from './outboxDrain';

const { drainSitePlatformEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  // The pass heartbeats while it works; a worker that died mid-pass is noticed within this.
  heartbeatTimeout: '20 seconds',
  // From ISOLATE_FROM_ATTEMPT on, a pass isolates the event at fault and records it as failed; what still throws
  // then is the database, and the loop tries again after a pause.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 6 },
});

/**
 * The fan-out entity workflow of one (account, site) (`site-platform-events:<accountId>:<siteId>`). The relay signals
 * (signal-with-start) when it hands events over; each pass fans out the site's oldest events not yet fanned out, from
 * `site_platform_inbound_events`, in arrival order (the loop: outboxDrain.ts): bound projects (at most 50), CMS
 * snapshots marked stale, the page index of external bindings refreshed, form submissions processed.
 */
export async function sitePlatformEvents(input: SitePlatformEventsInput): Promise<SitePlatformEventsResult> {
  return drainOutbox({
    signal: siteEventsSignal,
    carry: input,
    phase: 'fanning_out',
    pass: () =>
      drainSitePlatformEvents({
        accountId: input.accountId,
        siteId: input.siteId,
        batch: input.batch ?? EVENTS_PER_BATCH,
        budgetMs: input.passBudgetMs ?? SITE_PASS_BUDGET_MS,
      }),
    continueAsNew: (carry) =>
      makeContinueAsNewFunc<typeof sitePlatformEvents>({ typedSearchAttributes: workflowInfo().typedSearchAttributes })({
        ...input,
        ...carry,
      }),
  });
}
