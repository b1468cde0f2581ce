import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { startSweepBudget } from './sweepBudget';
import { PAGE_ACTIVITY, runSweep } from './sweep';
import type { ComplianceSweepInput, ComplianceSweepSummary } from './commerceComplianceSweep.contract';
import { startPrivacyRequestWorkflow } from './commercePrivacyRequest';
import { trackProgress } from './progress';

const { alertOverdueCommercePrivacyRequests, listUnfulfilledCommercePrivacyRequests } = proxyActivities<Activities>(PAGE_ACTIVITY);

const fresh = (): ComplianceSweepSummary => ({ partial: false, alerted: 0, unfulfilled: 0, started: 0, already_running: 0, by_topic: {} });

/**
 * The `commerce-compliance-sweep` (hourly at :30): first an urgent inbox alert for every request unfulfilled after
 * 30 days (once per request, `alerted_at` stamped), then the fulfilment workflow of every unfulfilled request with
 * fulfilment rules is started again: an open run of the same id is left alone (`already_running`), a closed one is
 * followed by a new run (`started`). Fulfilment is idempotent per request, so this is safe however often it runs.
 */
export async function commerceComplianceSweep(input: ComplianceSweepInput = {}): Promise<ComplianceSweepSummary> {
  if (input.summary === undefined) {
    // The first run alerts; the runs it continues as go on with the fulfilment.
    const budget = startSweepBudget(input);
    trackProgress('alerting');
    const summary = fresh();
    for (;;) {
      if (budget.spent()) return { ...summary, partial: true };
      const { alerted } = await alertOverdueCommercePrivacyRequests({ limit: budget.pageSize });
      summary.alerted += alerted;
      if (alerted < budget.pageSize) break;
    }
    input = { ...input, deadline: budget.deadline, summary };
  }
  return runSweep(input, {
    phase: 'fulfilling',
    fresh,
    page: (after, limit) => listUnfulfilledCommercePrivacyRequests({ after, limit }),
    // Starting a workflow takes no time worth a budget check: the whole page is (re)started.
    async fold(summary, page, progress) {
      for (const request of page.requests) {
        const outcome = await startPrivacyRequestWorkflow({
          accountId: request.accountId,
          requestId: request.requestId,
          connectionId: request.connectionId,
        });
        summary.unfulfilled++;
        summary.by_topic[request.topic] = (summary.by_topic[request.topic] ?? 0) + 1;
        if (outcome === 'started') summary.started++;
        else summary.already_running++;
        progress.advance();
      }
    },
    resume: { done: (summary) => summary.unfulfilled },
  });
}
