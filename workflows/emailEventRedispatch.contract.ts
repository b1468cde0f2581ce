import { defineWorkflow } from './defineWorkflow';

/** The contract of the `email-event-redispatch` sweep (emailEventRedispatch.ts). No I/O. */

/** Events older than this with no workflow started are handed over by the re-dispatch sweep. */
export const REDISPATCH_MIN_AGE_MS = 60_000;

export interface RedispatchInput {
  /** Most events handed over per run (the next run takes the rest). */
  limit?: number;
}

export interface RedispatchSummary {
  found: number;
  started: number;
  already_running: number;
}

export const emailEventRedispatchContract = defineWorkflow<[RedispatchInput?], RedispatchSummary>(
  'emailEventRedispatch',
  'email-event-redispatch',
);
