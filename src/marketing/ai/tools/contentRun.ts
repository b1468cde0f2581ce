import { validatePart } from '../../../http/validate';
import type { ToolCall, ToolContext, ToolOutcome } from '../types';
import { getItem, listItems, previewImages, seoCheckItem, updateItem } from './contentItems';
import { runImages, runResearch } from './contentJobs';
import { imagesRunArgs, itemArgs, listArgs, researchArgs, updateArgs } from './contentSchemas';
import type { ContentToolName } from './contentTools';
import type { ToolDeps } from './deps';

/** One content tool call: its arguments checked as strictly as the route checks its request (400 validation_failed). */
export async function runContentTool(deps: ToolDeps, ctx: ToolContext, name: ContentToolName, call: ToolCall): Promise<ToolOutcome> {
  const args = call.arguments;
  switch (name) {
    case 'content_list':
      return listItems(deps, ctx, validatePart('body', listArgs, args));
    case 'content_get':
      return getItem(deps, ctx, validatePart('body', itemArgs, args));
    case 'content_update':
      return updateItem(deps, ctx, validatePart('body', updateArgs, args));
    case 'content_seo_check':
      return seoCheckItem(deps, ctx, validatePart('body', itemArgs, args));
    case 'content_images_preview':
      return previewImages(deps, ctx, validatePart('body', itemArgs, args));
    case 'content_images_run':
      return runImages(deps, ctx, validatePart('body', imagesRunArgs, args));
    case 'content_research':
      return runResearch(deps, ctx, validatePart('body', researchArgs, args));
  }
}
