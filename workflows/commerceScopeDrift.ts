import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SweepInput } from './sweepBudget';
import { PAGE_ACTIVITY, runSweep } from './sweep';
import { connectionCheckSweep } from './connectionCheckSweep';
import type { ScopeDriftSummary } from './commerceScopeDrift.contract';

const { checkCommerceScopeDrift } = proxyActivities<Activities>(PAGE_ACTIVITY);

/**
 * The `commerce-scope-drift` sweep (daily, `0 6 * * *`): every account's connected shops, granted scope against the
 * requested scope list; a shop missing scopes gets a deduplicated `commerce_reconnect_suggested` inbox item.
 */
export async function commerceScopeDrift(input: SweepInput = {}): Promise<ScopeDriftSummary> {
  return runSweep(
    input,
    connectionCheckSweep({
      key: 'drifted',
      status: 'missing_scopes',
      page: (after, limit) => checkCommerceScopeDrift({ after, limit }),
      extra: (drifted) => ({ missing: drifted.missing }),
    }),
  );
}
