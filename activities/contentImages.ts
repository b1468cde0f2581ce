import { refundImageUnit } from '../src/billing/service';
import { placeImage } from '../src/marketing/images/place';
import { planImages, type PlanRequest } from '../src/marketing/images/plan';
import { renderImage } from '../src/marketing/images/render';
import type { PlaceRequest, RenderRequest } from '../workflows/contentImages.contract';
import type { ActivityDeps } from './deps';
import { siteDepsOf, workflowActor } from './siteDeps';
import { whileHeartbeating } from './heartbeat';

const HEARTBEAT_EVERY_MS = 3_000;

/**
 * Side effects of the `contentImages` workflow: the plan, one render per image (a regular activity that heartbeats
 * while the image API works; platform uploads are audited as `workflow:<workflowId>:<runId>`), the placement through
 * the content service, and the refund of a render whose retries are spent.
 */
export function createContentImagesActivities(deps: ActivityDeps) {
  const site = siteDepsOf(deps);
  return {
    planContentImages: (req: PlanRequest) => planImages(deps, req),
    renderContentImage: (req: RenderRequest) => {
      const actor = workflowActor();
      return whileHeartbeating((signal) => renderImage(site, req, async () => actor, signal), HEARTBEAT_EVERY_MS);
    },
    placeContentImage: (req: PlaceRequest) => placeImage(deps.db, req),
    refundContentImage: async (req: { accountId: string; unitKey: string }) => ({
      refunded: (await refundImageUnit(deps.db, req.accountId, req.unitKey)).changed,
    }),
  };
}
