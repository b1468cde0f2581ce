import { makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  EVENTS_PER_BATCH,
  siteEventsSignal,
  SITE_PASS_BUDGET_MS,
  type SitePlatformEventsInput,
  type SitePlatformEventsResult,
} from './sitePlatformEvents.contract';
import { DRAIN_PASS_OPTIONS, drainOutbox } from './outboxDrain';

const { drainSitePlatformEvents } = proxyActivities<Activities>(DRAIN_PASS_OPTIONS);

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
