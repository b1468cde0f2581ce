import type { ScheduleOverlapPolicy } from '@temporalio/client';
import type { ArgsOf, WorkflowContract } from '../../workflows/defineWorkflow';

/**
 * Options a hand-started run (`POST /api/cron/<name>`) may take, by body member, with the member of the workflow's
 * input each one sets. A schedule names the ones it takes (`runNowOptions`); src/cron validates them.
 */
export const RUN_NOW_INPUT_MEMBERS = { account_id: 'accountId', disconnect_cap: 'disconnectCap' } as const;
export type RunNowOption = keyof typeof RUN_NOW_INPUT_MEMBERS;

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
  /** The options a hand-started run takes (none when absent); scheduled runs always use `args`. */
  runNowOptions?: RunNowOption[];
}

type InputOf<C> = NonNullable<ArgsOf<C>[0]>;
/** The options whose input member the contract's workflow takes. */
type RunNowOptionOf<C> = { [K in RunNowOption]: (typeof RUN_NOW_INPUT_MEMBERS)[K] extends keyof InputOf<C> ? K : never }[RunNowOption];

/**
 * A table entry that runs `contract`'s workflow: its type comes from the contract and its arguments are checked
 * against it, so a schedule naming a workflow that does not exist, giving it wrong arguments or a run-now option its
 * input has no member for, fails the typecheck.
 */
export function defineSchedule<C extends WorkflowContract>(
  contract: C,
  entry: Omit<ScheduleEntry, 'workflowType' | 'args' | 'runNowOptions'> & { args: ArgsOf<C>; runNowOptions?: RunNowOptionOf<C>[] },
): ScheduleEntry {
  return { ...entry, workflowType: contract.workflowType };
}

/** The workflow a table entry runs, as a contract whose job kind is the schedule's name (as its scheduled runs have it). */
export function scheduledWorkflowOf(entry: ScheduleEntry): WorkflowContract<unknown[], unknown> {
  return { workflowType: entry.workflowType, jobKind: entry.name };
}
