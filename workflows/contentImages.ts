import { ApplicationFailure, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  IMAGE_RUN_BUDGET_MS,
  type ContentImagesInput,
  type ContentImagesResult,
  type GeneratedAsset,
  type ImagePlan,
  type PlannedImage,
  type RenderedImage,
} from './contentImages.contract';
import { inPool } from './pool';
import { trackProgress } from './progress';
import { codeOf, isStepFailure, reasonOf } from './stepFailure';

const retry = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 };

// Planning reads the item and may ask the chat model once (60 s at most); the bookkeeping steps are a few row writes.
const { planContentImages } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '90 seconds',
  retry: { ...retry, maximumAttempts: 2 },
});
const { placeContentImage, refundContentImage } = proxyLocalActivities<Activities>({ startToCloseTimeout: '15 seconds', retry });

// Renders end by 280 s after the start, so placing and refunding fit in the spec's 300 s.
const RENDERS_END_MS = IMAGE_RUN_BUDGET_MS - 20_000;
/** Hosting after the render (an upload to the platform or one row) on top of the image API's own timeout. */
const HOSTING_MS = 30_000;
const MIN_STEP_MS = 2_000;

const TAGS = (contentId: string) => ['content_image', `content:${contentId}`];

interface Illustrated {
  image: PlannedImage;
  rendered: RenderedImage | null;
  placed: boolean;
}

/**
 * One image run over a content item: plan (a hero and the H2s that add information), render the hero, then the
 * sections with bounded concurrency. Each image reserves an allowance unit before it renders (keyed by this run and
 * its slot, so a retried or restarted render never charges twice), is hosted and registered in the media library,
 * then placed under its heading (the hero becomes the featured image) through the content service. A render that
 * fails after its retries is refunded; every failure and skip is a warning, and the run goes on.
 */
export async function contentImages(input: ContentImagesInput): Promise<ContentImagesResult> {
  const progress = trackProgress('plan');
  const { workflowId, runId, startTime } = workflowInfo();
  const deadline = startTime.getTime() + RENDERS_END_MS;
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    progress.warn(message);
  };

  const plan = await planContentImages({
    accountId: input.accountId,
    contentId: input.contentId,
    replaceFeatured: input.replaceFeatured,
    maxSections: input.maxSections,
  });
  if (!plan) throw ApplicationFailure.nonRetryable('the content item was deleted before its images were planned', 'content_not_found');
  plan.warnings.forEach(warn);

  let charged = 0;
  let refunded = 0;
  const illustrate = async (image: PlannedImage): Promise<Illustrated> => {
    const unitKey = `${workflowId}:${runId}:${image.slot}`;
    const rendered = await render(plan, input, image, unitKey, deadline, warn);
    if (rendered.kind === 'failed') {
      if (rendered.refunded) refunded++;
      progress.advance();
      return { image, rendered: null, placed: false };
    }
    charged++;
    rendered.image.warnings.forEach((w) => warn(`${describe(image)}: ${w}`));
    const placed = await placeContentImage({
      accountId: input.accountId,
      contentId: input.contentId,
      image,
      rendered: rendered.image,
      replaceFeatured: input.replaceFeatured,
      workflowId,
    });
    if (!placed.placed) warn(`${describe(image)}: the image is hosted but was not placed (${NOT_PLACED[placed.reason]})`);
    progress.advance();
    return { image, rendered: rendered.image, placed: placed.placed };
  };

  progress.phase('render', plan.images.length);
  const hero = plan.images.find((i) => i.slot === 'hero');
  const sections = plan.images.filter((i) => i.slot !== 'hero');
  const done: Illustrated[] = [];
  if (hero) done.push(await illustrate(hero));
  done.push(...(await inPool(sections, plan.concurrency, illustrate)));

  const assets = done.flatMap(({ image, rendered, placed }): GeneratedAsset[] =>
    rendered
      ? [
          {
            slot: image.slot,
            heading: image.heading,
            asset_id: rendered.assetId,
            url: rendered.url,
            alt: image.alt,
            width: rendered.width,
            height: rendered.height,
            hosted_on: rendered.hostedOn,
            platform_asset_id: rendered.platformAssetId,
            placed,
            tags: TAGS(input.contentId),
          },
        ]
      : [],
  );
  const heroAsset = assets.find((a) => a.slot === 'hero' && a.placed);
  return {
    run_id: workflowId,
    content_id: input.contentId,
    planner: plan.planner,
    assets,
    featured_image: heroAsset ? { url: heroAsset.url, alt: heroAsset.alt } : null,
    skipped: plan.skipped,
    charged,
    refunded,
    warnings,
  };
}

const NOT_PLACED = {
  heading_gone: 'its heading is no longer in the body',
  image_present: 'an image was added below its heading meanwhile',
  featured_present: 'a featured image was set meanwhile',
  item_gone: 'the item was deleted',
} as const;

const describe = (image: PlannedImage) => (image.heading === null ? 'hero image' : `image for "${image.heading}"`);

type RenderOutcome = { kind: 'rendered'; image: RenderedImage } | { kind: 'failed'; refunded: boolean };

/** One render in its own activity, its timeouts cut to the run's deadline; a spent render is refunded. */
async function render(
  plan: ImagePlan,
  input: ContentImagesInput,
  image: PlannedImage,
  unitKey: string,
  deadline: number,
  warn: (m: string) => void,
): Promise<RenderOutcome> {
  const left = deadline - Date.now();
  if (left < MIN_STEP_MS) {
    warn(`${describe(image)}: not rendered, the run's 300 seconds were up (nothing was charged)`);
    return { kind: 'failed', refunded: false };
  }
  const attempt = plan.renderTimeoutMs + HOSTING_MS;
  const { renderContentImage } = proxyActivities<Activities>({
    startToCloseTimeout: Math.min(attempt, left),
    scheduleToCloseTimeout: left,
    heartbeatTimeout: '15 seconds',
    retry,
  });
  try {
    const rendered = await renderContentImage({
      accountId: input.accountId,
      contentId: input.contentId,
      unitKey,
      image,
      host: plan.host,
      publicBaseUrl: input.publicBaseUrl,
      projectId: plan.projectId,
    });
    return { kind: 'rendered', image: rendered };
  } catch (err) {
    if (!isStepFailure(err)) throw err;
    if (codeOf(err) === 'quota_exhausted') {
      warn(`${describe(image)}: not rendered, the monthly image allowance is used up (nothing was charged)`);
      return { kind: 'failed', refunded: false };
    }
    const { refunded } = await refundContentImage({ accountId: input.accountId, unitKey });
    warn(`${describe(image)}: the render failed (${reasonOf(err)}); ${refunded ? 'its image unit was refunded' : 'nothing was charged'}`);
    return { kind: 'failed', refunded };
  }
}
