import { defineWorkflow } from '../../workflows/defineWorkflow';

/** Test-only workflow's contract (quickJob.ts). */

export interface QuickJobInput {
  value: string;
  delayMs?: number;
}

export interface QuickJobResult {
  value: string;
  run_id: string;
}

export const quickJobContract = defineWorkflow<[QuickJobInput], QuickJobResult>('quickJobWorkflow', 'test_quick');
