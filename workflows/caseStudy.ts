import { ApplicationFailure, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { CASE_STUDY_BUDGET_MS, type CaseStudyInput, type CaseStudyResult } from './caseStudy.contract';
import { trackProgress } from './progress';

const retry = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 };

// Reading the sources and saving the item are a few queries each; the draft is one model call (60 s at most), whose
// last attempt falls back to the template, so the run always completes within the spec's three minutes.
const { gatherCaseStudy, saveCaseStudyDraft } = proxyLocalActivities<Activities>({ startToCloseTimeout: '15 seconds', retry });
const { writeCaseStudyDraft } = proxyActivities<Activities>({
  startToCloseTimeout: '70 seconds',
  scheduleToCloseTimeout: `${CASE_STUDY_BUDGET_MS - 30_000} milliseconds`,
  heartbeatTimeout: '15 seconds',
  retry: { ...retry, maximumAttempts: 2 },
});

/**
 * One case-study draft from a won deal: gather the sources again (a deal no longer won, or a source gone, fails the
 * run with its code), write the prose (the chat model, or the documented template), save the item and its artifact.
 */
export async function caseStudy(input: CaseStudyInput): Promise<CaseStudyResult> {
  const progress = trackProgress('gather');
  const gathered = await gatherCaseStudy(input);
  if (gathered.status === 'refused') throw ApplicationFailure.nonRetryable(gathered.message, gathered.code);

  progress.phase('draft');
  const draft = await writeCaseStudyDraft({ sources: gathered.sources });
  draft.warnings.forEach((w) => progress.warn(w));

  progress.phase('save');
  return saveCaseStudyDraft({
    accountId: input.accountId,
    input,
    sources: gathered.sources,
    draft,
    journeyId: gathered.journeyId,
    workflowId: workflowInfo().workflowId,
  });
}
