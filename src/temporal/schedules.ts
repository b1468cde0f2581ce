import type { ScheduleOverlapPolicy } from '@temporalio/client';

/** One sweep the spec runs from cron; `schedules sync` makes Temporal's Schedules match a table of them (src/app/schedules.ts). */
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
