import { defineQuery } from '@temporalio/workflow';

/** The `progress` query every job answers (see progress.ts); `GET /api/jobs/{id}` shows it. No I/O: `src/` imports it. */
export interface JobProgress {
  phase: string;
  done: number;
  total: number | null;
  warnings: string[];
}

export const progressQuery = defineQuery<JobProgress>('progress');
