import type { SignalDefinition } from '@temporalio/workflow';

/**
 * A workflow's contract: what `src/` needs to start and steer it with types, and nothing that runs. Each
 * `workflows/<name>.contract.ts` defines one with `defineWorkflow`; the start helpers in `src/temporal/jobs.ts` take
 * the contract, so a start with arguments the workflow does not take fails the typecheck. That each workflow
 * implements its contract (and is exported under its `workflowType`) is checked by test/workflows/contracts.test.ts.
 */
export interface WorkflowContract<Args extends unknown[] = unknown[], Result = unknown> {
  /** The workflow function's name as the worker bundle exports it (Temporal's workflow type). */
  readonly workflowType: string;
  /** The job kind: the `JobKind` search attribute and the first part of the job id. */
  readonly jobKind: string;
  /** Type-level only, never set: the workflow's arguments and result. */
  readonly types?: { args: Args; result: Result };
}

export type ArgsOf<C> = C extends WorkflowContract<infer A, unknown> ? A : never;
export type ResultOf<C> = C extends WorkflowContract<unknown[], infer R> ? R : never;
/** The function type a workflow implementing the contract has. */
export type WorkflowOf<C> = (...args: ArgsOf<C>) => Promise<ResultOf<C>>;

/** A workflow's signals by name, each taking one payload. */
export type SignalMap = Record<string, SignalDefinition<[unknown]>>;

/** A contract whose workflow handles `signals` (set with `withSignals`). */
export type SignalledContract<S extends SignalMap = SignalMap> = WorkflowContract & { readonly signals: S };

/** The payload of the contract's signal `name`. */
export type SignalPayloadOf<C extends SignalledContract, K extends keyof C['signals']> =
  C['signals'][K] extends SignalDefinition<[infer P]> ? P : never;

export function defineWorkflow<Args extends unknown[], Result>(workflowType: string, jobKind: string): WorkflowContract<Args, Result> {
  return { workflowType, jobKind };
}

/** The contract with the signals its workflow handles; `signalWithStartJob` sends only these, with their payloads. */
export function withSignals<C extends WorkflowContract, S extends SignalMap>(contract: C, signals: S): C & { readonly signals: S } {
  return { ...contract, signals };
}
