import { defineQuery } from '@temporalio/workflow';

/** What every job reports while it runs; `GET /api/jobs/{id}` shows it. */
export interface JobProgress {
  phase: string;
  done: number;
  total: number | null;
  warnings: string[];
}

export const progressQuery = defineQuery<JobProgress>('progress');
