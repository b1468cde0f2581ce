import type { Priority } from '@temporalio/common';
import { SYSTEM_ACCOUNT } from './searchAttributes';

/**
 * Task-queue priority keys (1 runs first; the server's default, for anything started without one, is 3).
 * A job an account asked for outranks a sweep: a backlog of sweep tasks never delays an interactive job.
 * Scheduled runs are started by Temporal Schedules, whose actions carry no priority in SDK 1.24: they run at the
 * default 3, still behind interactive jobs.
 */
export const INTERACTIVE_PRIORITY = 2;
export const SWEEP_PRIORITY = 4;

/**
 * A job's priority: interactive or sweep, and the account as the fairness key, so within a priority level the server
 * dispatches tasks round-robin across accounts and one account's flood does not starve another's jobs. Activities
 * inherit the workflow's priority (the fairness key included), so workflows need not repeat it.
 */
export function jobPriority(accountId: string): Priority {
  const sweep = accountId === SYSTEM_ACCOUNT;
  return { priorityKey: sweep ? SWEEP_PRIORITY : INTERACTIVE_PRIORITY, fairnessKey: accountId };
}
