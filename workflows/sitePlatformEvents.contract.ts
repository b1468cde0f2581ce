import { defineSignal } from '@temporalio/workflow';
import { defineWorkflow, withSignals } from './defineWorkflow';
import type { DrainCarry, HandOver } from './outboxDrain.contract';

/** The contract of a site's event fan-out workflow (sitePlatformEvents.ts). No I/O: `src/` imports it. */

export interface SitePlatformEventsInput extends DrainCarry {
  accountId: string;
  siteId: string;
}

export interface SitePlatformEventsResult {
  /** Events fanned out by the whole chain of runs. */
  processed: number;
}

/** Events of the site were recorded and handed over (their payloads stay in `site_platform_inbound_events`). */
export const siteEventsSignal = defineSignal<[HandOver]>('events');

export const sitePlatformEventsContract = withSignals(
  defineWorkflow<[SitePlatformEventsInput], SitePlatformEventsResult>('sitePlatformEvents', 'site-platform-events'),
  { events: siteEventsSignal },
);

/** Events one batch of a pass takes. */
export const EVENTS_PER_BATCH = 200;
/** A pass (one activity call) ends at the first event boundary past this, so the workflow hears of progress often. */
export const SITE_PASS_BUDGET_MS = 10_000;
