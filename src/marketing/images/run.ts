import { requireGoodStanding, requireImageAllowance } from '../../billing/service';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { runJobRequest, type JobRequest } from '../../jobs/start/kit';
import { createImageClient } from '../../clients/providers/images';
import type { StartAndWaitOutcome } from '../../temporal/startAndWait';
import { contentImagesContract, type ContentImagesResult } from '../../../workflows/contentImages.contract';
import { getContent } from '../content/service';

type RunDeps = Pick<AppDeps, 'config' | 'db' | 'temporal' | 'metrics' | 'logger'>;

export interface ImageRunRequest extends JobRequest {
  accountId: string;
  contentId: string;
  publicBaseUrl: string;
  replaceFeatured: boolean;
  maxSections: number;
}

export const imageProviderNotConfigured = () =>
  new ApiError(
    503,
    'image_provider_not_configured',
    'no image provider is configured (IMAGE_API_KEY); nothing ran and nothing was charged',
  );

/**
 * Starts an item's image run and waits for it as the request's wait says (IMAGE_WAIT_SECONDS at most). The job id is
 * `content-images:<account>:<item>:<key>`: a retry with the same Idempotency-Key attaches to the same run (running or
 * finished) and answers its result without new gates or charges; another request under the key is 409. A new run is
 * refused, before anything is planned or charged, when the account is not in good standing (402 `billing_standing`),
 * its monthly allowance is used up (402 `quota_exhausted`) or no image provider is configured (503).
 */
export async function runContentImages(deps: RunDeps, req: ImageRunRequest): Promise<StartAndWaitOutcome<ContentImagesResult>> {
  const item = await getContent(deps.db, req.accountId, req.contentId);
  return runJobRequest(deps, req, {
    contract: contentImagesContract,
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
    fingerprint: { content_id: item.id, replace_featured: req.replaceFeatured, max_sections: req.maxSections },
    keyScope: item.id,
    searchAttributes: { ContentId: item.id, ProjectId: item.cms_link?.project_id ?? undefined },
    beforeNewRun: async () => {
      await requireGoodStanding(deps.db, req.accountId);
      await requireImageAllowance(deps.db, req.accountId, new Date());
      if (!createImageClient(deps.config)) throw imageProviderNotConfigured();
    },
  });
}
