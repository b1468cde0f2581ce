import type { ScheduleOverlapPolicy } from '@temporalio/client';

/** One sweep the spec runs from cron; `schedules sync` makes Temporal's Schedules match this table. */
export interface ScheduleEntry {
  /** Stable name: the schedule id is `workyard:<name>` and `POST /api/cron/<name>` runs it now. */
  name: string;
  /** Cron expression, evaluated in UTC. */
  cron: string;
  workflowType: string;
  args: unknown[];
  overlap: ScheduleOverlapPolicy;
  description: string;
}

/** The service's sweeps; later issues add the spec's cron jobs here. */
export const SCHEDULES: ScheduleEntry[] = [
  {
    name: 'idempotency-key-purge',
    cron: '17 * * * *',
    workflowType: 'purgeIdempotencyKeys',
    args: [],
    overlap: 'SKIP',
    description: 'Deletes stored Idempotency-Key responses older than 24 hours.',
  },
];
