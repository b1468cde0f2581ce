import { randomUUID } from 'node:crypto';
import { requireGoodStanding, requireImageAllowance } from '../../billing/service';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { requestHash } from '../../http/idempotency';
import { createImageClient } from '../../providers/images';
import { keyReused, refuseOtherRequest } from '../../research/service';
import { jobId } from '../../temporal/jobIds';
import { jobOptionsHashed, type JobStartOptions } from '../../temporal/jobs';
import { describeRun } from '../../temporal/jobView';
import { startAndWait, type StartAndWaitOutcome } from '../../temporal/startAndWait';
import { contentImagesContract, type ContentImagesResult } from '../../../workflows/contentImages.contract';
import { getContent } from '../content/service';

type RunDeps = Pick<AppDeps, 'config' | 'db' | 'temporal' | 'metrics' | 'logger'>;

export interface ImageRunRequest {
  accountId: string;
  contentId: string;
  requestId: string;
  /** The validated Idempotency-Key header; absent: a run of its own. */
  idempotencyKey?: string;
  /** The route's method and path template: part of the request's fingerprint. */
  route: string;
  publicBaseUrl: string;
  replaceFeatured: boolean;
  maxSections: number;
  /** The request's `tags`, `metadata` and `callback_url` (part of its fingerprint too). */
  options?: JobStartOptions;
}

export const imageProviderNotConfigured = () =>
  new ApiError(
    503,
    'image_provider_not_configured',
    'no image provider is configured (IMAGE_API_KEY); nothing ran and nothing was charged',
  );

/**
 * Starts an item's image run and waits for it up to IMAGE_WAIT_SECONDS. The job id is
 * `content-images:<account>:<item>:<key>`: a retry with the same Idempotency-Key attaches to the same run (running or
 * finished) and answers its result without new gates or charges; another request under the key is 409. A new run is
 * refused, before anything is planned or charged, when the account is not in good standing (402 `billing_standing`),
 * its monthly allowance is used up (402 `quota_exhausted`) or no image provider is configured (503).
 */
export async function runContentImages(deps: RunDeps, req: ImageRunRequest): Promise<StartAndWaitOutcome<ContentImagesResult>> {
  const item = await getContent(deps.db, req.accountId, req.contentId);
  const key = `${item.id}:${req.idempotencyKey ?? randomUUID()}`;
  const hash = requestHash({
    route: req.route,
    content_id: item.id,
    replace_featured: req.replaceFeatured,
    max_sections: req.maxSections,
    ...jobOptionsHashed(req.options),
  });
  const existing = req.idempotencyKey ? await describeRun(deps.temporal, jobId(contentImagesContract.jobKind, req.accountId, key)) : null;
  if (existing) {
    if (existing.memo?.requestHash !== hash) throw keyReused();
  } else {
    await requireGoodStanding(deps.db, req.accountId);
    await requireImageAllowance(deps.db, req.accountId, new Date());
    if (!createImageClient(deps.config)) throw imageProviderNotConfigured();
  }
  return startAndWait(
    deps,
    contentImagesContract,
    {
      accountId: req.accountId,
      args: [
        {
          accountId: req.accountId,
          contentId: item.id,
          publicBaseUrl: req.publicBaseUrl,
          replaceFeatured: req.replaceFeatured,
          maxSections: req.maxSections,
          requestId: req.requestId,
        },
      ],
      requestId: req.requestId,
      key,
      searchAttributes: { ContentId: item.id, ProjectId: item.cms_link?.project_id ?? undefined },
      memo: { requestHash: hash },
      options: req.options,
    },
    {
      waitSeconds: deps.config.IMAGE_WAIT_SECONDS,
      // Two first requests under one key raced: the one whose request the run was not started with is refused.
      afterStart: req.idempotencyKey && !existing ? (id) => refuseOtherRequest(deps, id, hash) : undefined,
    },
  );
}
