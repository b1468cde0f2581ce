import type { AppDeps } from '../../deps';
import { runJobRequest, type JobRequest } from '../../jobs/start/kit';
import type { StartAndWaitOutcome } from '../../temporal/startAndWait';
import { caseStudyContract } from '../../../workflows/caseStudy.contract';
import { getContent, type ContentItem } from '../content/service';
import { gatherSources, type CaseStudyRequest } from './gather';

type RunDeps = Pick<AppDeps, 'db' | 'temporal' | 'metrics' | 'logger'>;

export interface DraftRequest extends CaseStudyRequest, JobRequest {
  accountId: string;
}

/**
 * Starts a case-study draft and waits for it as the request's wait says (CASE_STUDY_WAIT_SECONDS at most). The job id
 * is `case-study:<account>:<deal>:<key>`: a retry with the same Idempotency-Key attaches to the same run (running or
 * finished) and answers the same item; another body under the key is 409. A new draft is refused, before anything is
 * written, when its deal is not the account's or not won, or a named source is not the account's. A finished run
 * answers the content item it drafted.
 */
export async function draftCaseStudyRun(deps: RunDeps, req: DraftRequest): Promise<StartAndWaitOutcome<ContentItem>> {
  const refs = {
    dealId: req.dealId,
    gridId: req.gridId,
    testimonialId: req.testimonialId,
    avatarId: req.avatarId,
    projectId: req.projectId,
  };
  const outcome = await runJobRequest(deps, req, {
    contract: caseStudyContract,
    accountId: req.accountId,
    args: [{ accountId: req.accountId, ...refs, requestId: req.requestId }],
    fingerprint: refs,
    keyScope: req.dealId,
    searchAttributes: { ProjectId: req.projectId ?? undefined },
    beforeNewRun: async () => void (await gatherSources(deps.db, req.accountId, refs)),
  });
  if (outcome.status === 'running') return outcome;
  return { ...outcome, result: await getContent(deps.db, req.accountId, outcome.result.id) };
}
