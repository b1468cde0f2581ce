import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { requestHash } from '../../http/idempotency';
import { keyReused, refuseOtherRequest } from '../../research/service';
import { jobId } from '../../temporal/jobIds';
import { jobOptionsHashed, type JobStartOptions } from '../../temporal/jobs';
import { describeRun } from '../../temporal/jobView';
import { startAndWait, type StartAndWaitOutcome } from '../../temporal/startAndWait';
import { caseStudyContract, type CaseStudyResult } from '../../../workflows/caseStudy.contract';
import { gatherSources, type CaseStudyRequest } from './gather';

type RunDeps = Pick<AppDeps, 'config' | 'db' | 'temporal' | 'metrics' | 'logger'>;

export interface DraftRequest extends CaseStudyRequest {
  accountId: string;
  requestId: string;
  /** The validated Idempotency-Key header; absent: a draft of its own. */
  idempotencyKey?: string;
  /** The route's method and path: part of the request's fingerprint. */
  route: string;
  /** The request's `tags`, `metadata` and `callback_url` (part of its fingerprint too). */
  options?: JobStartOptions;
}

/**
 * Starts a case-study draft and waits for it up to CASE_STUDY_WAIT_SECONDS. The job id is
 * `case-study:<account>:<deal>:<key>`: a retry with the same Idempotency-Key attaches to the same run (running or
 * finished) and answers the same item; another body under the key is 409. A new draft is refused, before anything is
 * written, when its deal is not the account's or not won, or a named source is not the account's.
 */
export async function draftCaseStudyRun(deps: RunDeps, req: DraftRequest): Promise<StartAndWaitOutcome<CaseStudyResult>> {
  const refs = {
    dealId: req.dealId,
    gridId: req.gridId,
    testimonialId: req.testimonialId,
    avatarId: req.avatarId,
    projectId: req.projectId,
  };
  const hash = requestHash({ route: req.route, ...refs, ...jobOptionsHashed(req.options) });
  const key = `${req.dealId}:${req.idempotencyKey ?? randomUUID()}`;
  const existing = req.idempotencyKey ? await describeRun(deps.temporal, jobId(caseStudyContract.jobKind, req.accountId, key)) : null;
  if (existing) {
    if (existing.memo?.requestHash !== hash) throw keyReused();
  } else {
    await gatherSources(deps.db, req.accountId, refs);
  }
  return startAndWait(
    deps,
    caseStudyContract,
    {
      accountId: req.accountId,
      args: [{ accountId: req.accountId, ...refs, requestId: req.requestId }],
      requestId: req.requestId,
      key,
      searchAttributes: { ProjectId: req.projectId ?? undefined },
      memo: { requestHash: hash },
      options: req.options,
    },
    {
      waitSeconds: deps.config.CASE_STUDY_WAIT_SECONDS,
      afterStart: req.idempotencyKey && !existing ? (id) => refuseOtherRequest(deps, id, hash) : undefined,
    },
  );
}
