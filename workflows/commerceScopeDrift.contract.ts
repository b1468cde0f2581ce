import type { ConnectionCheckSummary, ReportedConnection, SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `commerce-scope-drift` sweep (commerceScopeDrift.ts). No I/O. */

export interface ScopeDriftSummary extends ConnectionCheckSummary<
  ReportedConnection<'missing_scopes' | 'failed'> & { missing?: string[] }
> {
  drifted: number;
}

export const commerceScopeDriftContract = defineWorkflow<[SweepInput?], ScopeDriftSummary>('commerceScopeDrift', 'commerce-scope-drift');
