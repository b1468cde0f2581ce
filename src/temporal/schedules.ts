import type { ScheduleOverlapPolicy } from '@temporalio/client';
import type { ArgsOf, WorkflowContract } from '../../workflows/defineWorkflow';

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

/**
 * A table entry that runs `contract`'s workflow: its type comes from the contract and its arguments are checked
 * against it, so a schedule naming a workflow that does not exist, or giving it wrong arguments, fails the typecheck.
 */
export function defineSchedule<C extends WorkflowContract>(
  contract: C,
  entry: Omit<ScheduleEntry, 'workflowType' | 'args'> & { args: ArgsOf<C> },
): ScheduleEntry {
  return { ...entry, workflowType: contract.workflowType };
}

/** The workflow a table entry runs, as a contract whose job kind is the schedule's name (as its scheduled runs have it). */
export function scheduledWorkflowOf(entry: ScheduleEntry): WorkflowContract<unknown[], unknown> {
  return { workflowType: entry.workflowType, jobKind: entry.name };
}
