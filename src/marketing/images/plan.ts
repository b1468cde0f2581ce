import type { ActivityDeps } from '../../../activities/deps';
import { ApiError } from '../../http/errors';
import { createChatClient } from '../../clients/providers/chatCompletions';
import { contentSourceOf } from '../../sitePlatform/operations/contentSource';
import type { ImagePlan } from '../../../workflows/contentImages.contract';
import { imageProfile } from '../brand/service';
import { getContent, type ContentItem } from '../content/service';
import { planHeuristic, type PlanDraft, type PlanOptions } from './heuristic';
import { planWithModel } from './modelPlan';
import type { PromptProfile } from './prompt';
import { bodySections } from './sections';

export interface PlanRequest extends PlanOptions {
  accountId: string;
  contentId: string;
}

const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** The item's linked project's guide (the project's own wins), else the account's (also when the project is gone). */
async function promptProfile(deps: ActivityDeps, accountId: string, projectId: string | null): Promise<PromptProfile> {
  if (projectId !== null) {
    try {
      return await imageProfile(deps.db, accountId, projectId, '');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return imageProfile(deps.db, accountId, undefined, '');
}

/** The platform's asset library when the item's project publishes to the platform CMS on a known site; else the media store. */
async function hostOf(deps: ActivityDeps, accountId: string, projectId: string | null): Promise<ImagePlan['host']> {
  if (projectId === null) return { kind: 'media_store' };
  const source = await contentSourceOf(deps.db, accountId, projectId);
  return source.provider === 'site_platform' && source.site_id
    ? { kind: 'site_platform', projectId, siteId: source.site_id }
    : { kind: 'media_store' };
}

/**
 * The run's first step: the item as it is now, planned by the chat model when one is configured (an unusable answer
 * falls back to the heuristic, with a warning) or by the heuristic; where its images will be hosted; and the worker's
 * render settings. Null when the item is gone.
 */
export async function planImages(deps: ActivityDeps, req: PlanRequest): Promise<ImagePlan | null> {
  let item: ContentItem;
  try {
    item = await getContent(deps.db, req.accountId, req.contentId);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
  const projectId = item.cms_link?.project_id ?? null;
  const [profile, host] = await Promise.all([promptProfile(deps, req.accountId, projectId), hostOf(deps, req.accountId, projectId)]);
  const sections = bodySections(item.body ?? '');
  const options: PlanOptions = { replaceFeatured: req.replaceFeatured, maxSections: req.maxSections };
  const warnings: string[] = [];
  const chat = createChatClient(deps.config);
  let planner: ImagePlan['planner'] = 'heuristic';
  let draft: PlanDraft;
  if (chat) {
    try {
      draft = await planWithModel(chat, item, sections, profile, options);
      planner = 'model';
    } catch (err) {
      warnings.push(`the model could not plan the images (${(err as Error).message}); the heuristic planned them`);
      draft = planHeuristic(item, sections, profile, options);
    }
  } else {
    draft = planHeuristic(item, sections, profile, options);
  }
  return {
    planner,
    images: draft.images,
    skipped: draft.skipped,
    host,
    projectId,
    concurrency: deps.config.IMAGE_RENDER_CONCURRENCY,
    renderTimeoutMs: deps.config.IMAGE_TIMEOUT_MS,
    warnings,
  };
}
