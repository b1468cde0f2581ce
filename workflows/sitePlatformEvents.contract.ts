import { defineSignal } from '@temporalio/workflow';
import { defineWorkflow, withSignals } from './defineWorkflow';

/** The contract of a site's event fan-out workflow (sitePlatformEvents.ts). No I/O: `src/` imports it. */

/** Events the relay hands over, by `seq` in arrival order; their payloads stay in `site_platform_inbound_events`. */
export interface SiteEventsSignal {
  seqs: number[];
}

export interface SitePlatformEventsInput {
  accountId: string;
  siteId: string;
  /** Seqs received but not yet fanned out when the previous run continued as new. */
  pending?: number[];
  /** Seqs fanned out lately (a re-sent signal names them again: they are ignored). */
  recent?: number[];
  /** Events fanned out by earlier runs of the chain (the `progress` query counts across runs). */
  processed?: number;
  /** Continue as new after this many events in one run (default 10 000); Temporal's suggestion also triggers it. */
  maxEventsPerRun?: number;
}

export interface SitePlatformEventsResult {
  /** Events fanned out by the whole chain of runs. */
  processed: number;
}

export const siteEventsSignal = defineSignal<[SiteEventsSignal]>('events');

export const sitePlatformEventsContract = withSignals(
  defineWorkflow<[SitePlatformEventsInput], SitePlatformEventsResult>('sitePlatformEvents', 'site-platform-events'),
  { events: siteEventsSignal },
);

/**
 * One entity workflow per (account, site): events of one site are fanned out in arrival order, whichever of the
 * account's connections delivered them (they share the dedup key (account, site, event id) and the site's page index).
 */
export const sitePlatformEventsWorkflowId = (accountId: string, siteId: string) => `site-platform-events:${accountId}:${siteId}`;
