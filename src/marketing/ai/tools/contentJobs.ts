import type { z } from 'zod';
import { jobWait } from '../../../jobs/start/wait';
import { researchContent } from '../../../research/service';
import type { StartAndWaitOutcome } from '../../../temporal/startAndWait';
import { runContentImages } from '../../images/run';
import type { ToolContext, ToolOutcome } from '../types';
import type { imagesRunArgs, researchArgs } from './contentSchemas';
import { appDepsOf, type ToolDeps } from './deps';
import { okOutcome } from './outcome';
import { pinnedItem } from './contentItems';
import { MAX_SECTION_IMAGES } from '../../../../workflows/contentImages.contract';

// A turn never waits for a job: it starts it (wait bound 0) and answers the job id; the user follows the job on the
// job surface. ctx.idempotencyKey is the start's key, so an activity retry attaches to the run it already started.
const NO_WAIT = jobWait(undefined, 0);

/** A tool's start is fingerprinted like its agent route's, so a key reused for another request is refused (409). */
const routeOf = (ctx: ToolContext, path: string) => `POST ${ctx.caller.kind === 'agent' ? '/api/agent' : '/api'}${path}`;

function started<T>(tool: string, outcome: StartAndWaitOutcome<T>): ToolOutcome {
  const jobId = outcome.status === 'running' ? outcome.job.id : outcome.jobId;
  return okOutcome(202, { job_id: jobId, status: outcome.status }, [{ type: 'job', id: jobId, action: 'started', tool }]);
}

export async function runImages(deps: ToolDeps, ctx: ToolContext, args: z.output<typeof imagesRunArgs>): Promise<ToolOutcome> {
  const item = await pinnedItem(deps, ctx, args.content_id);
  const app = appDepsOf(deps);
  const outcome = await runContentImages(app, {
    accountId: ctx.caller.accountId,
    contentId: item.id,
    requestId: ctx.idempotencyKey,
    idempotencyKey: ctx.idempotencyKey,
    route: routeOf(ctx, '/marketing/content/{id}/images'),
    // No request to take a host from: media URLs point at the configured public URL (relative without one).
    publicBaseUrl: (app.config.PUBLIC_APP_URL ?? '').replace(/\/+$/, ''),
    replaceFeatured: args.replace_featured ?? false,
    maxSections: args.max_sections ?? MAX_SECTION_IMAGES,
    wait: NO_WAIT,
  });
  return started('content_images_run', outcome);
}

export async function runResearch(deps: ToolDeps, ctx: ToolContext, args: z.output<typeof researchArgs>): Promise<ToolOutcome> {
  const item = await pinnedItem(deps, ctx, args.content_id);
  const outcome = await researchContent(appDepsOf(deps), {
    accountId: ctx.caller.accountId,
    requestId: ctx.idempotencyKey,
    idempotencyKey: ctx.idempotencyKey,
    route: routeOf(ctx, '/marketing/content/{id}/research'),
    contentId: item.id,
    maxSources: args.max_sources,
    wait: NO_WAIT,
  });
  return started('content_research', outcome);
}
