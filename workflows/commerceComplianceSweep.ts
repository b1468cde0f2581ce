import { makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { startSweepBudget } from './sweepBudget';
import type { ComplianceSweepInput, ComplianceSweepSummary } from './commerceComplianceSweep.contract';
import { startPrivacyRequestWorkflow } from './commercePrivacyRequest';
import { trackProgress } from './progress';

const { alertOverdueCommercePrivacyRequests, listUnfulfilledCommercePrivacyRequests } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * The `commerce-compliance-sweep` (hourly at :30): first an urgent inbox alert for every request unfulfilled after
 * 30 days (once per request, `alerted_at` stamped), then the fulfilment workflow of every unfulfilled request with
 * fulfilment rules is started again: an open run of the same id is left alone (`already_running`), a closed one is
 * followed by a new run (`started`). Fulfilment is idempotent per request, so this is safe however often it runs.
 */
export async function commerceComplianceSweep(input: ComplianceSweepInput = {}): Promise<ComplianceSweepSummary> {
  const budget = startSweepBudget(input);
  const progress = trackProgress('alerting');
  const summary: ComplianceSweepSummary = input.summary ?? {
    partial: false,
    alerted: 0,
    unfulfilled: 0,
    started: 0,
    already_running: 0,
    by_topic: {},
  };

  if (input.summary === undefined) {
    for (;;) {
      if (budget.spent()) return { ...summary, partial: true };
      const { alerted } = await alertOverdueCommercePrivacyRequests({ limit: budget.pageSize });
      summary.alerted += alerted;
      if (alerted < budget.pageSize) break;
    }
  }

  progress.phase('fulfilling');
  progress.advance(summary.unfulfilled);
  for (let after = input.after ?? null; ;) {
    if (budget.spent()) return { ...summary, partial: true };
    const page = await listUnfulfilledCommercePrivacyRequests({ after, limit: budget.pageSize });
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
    if (!page.next) return summary;
    after = page.next;
    if (workflowInfo().continueAsNewSuggested) {
      const next = makeContinueAsNewFunc<typeof commerceComplianceSweep>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
      return next({ ...input, deadline: budget.deadline, after, summary });
    }
  }
}
