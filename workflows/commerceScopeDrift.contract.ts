import type { SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `commerce-scope-drift` sweep (commerceScopeDrift.ts). No I/O. */

export interface ScopeDriftSummary {
  /** True when the budget ran out before every connection was checked. */
  partial: boolean;
  checked: number;
  drifted: number;
  inbox_items_created: number;
  failed: number;
  connections: Array<{
    connection_id: string;
    account_id: string;
    shop_domain?: string;
    status: 'missing_scopes' | 'failed';
    missing?: string[];
    inbox_item_created?: boolean;
    code?: string;
  }>;
  connections_truncated: boolean;
}

export const commerceScopeDriftContract = defineWorkflow<[SweepInput?], ScopeDriftSummary>('commerceScopeDrift', 'commerce-scope-drift');
