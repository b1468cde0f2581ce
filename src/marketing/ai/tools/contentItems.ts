import type { z } from 'zod';
import { listEnvelope, offsetOf } from '../../../http/pagination';
import { contentNotFound } from '../../content/errors';
import { listContent } from '../../content/list';
import { toContentItem } from '../../content/contentItemJson';
import { getContent, updateContent, type ContentItem } from '../../content/service';
import { urlOf, urlsOf } from '../../content/url';
import { imagesPreview } from '../../images/preview';
import { scheduledPublishOf } from '../../schedule/view';
import { seoCheck } from '../../seo/check';
import type { ToolContext, ToolOutcome } from '../types';
import { contentActorOf } from './caller';
import type { itemArgs, listArgs, updateArgs } from './contentSchemas';
import { appDepsOf, type ToolDeps } from './deps';
import { okOutcome } from './outcome';
import { pinnedContentPage } from './pinnedListStore';

/** An item of the account, and of the pinned project when the chat is pinned: any other is 404 like a missing one. */
export async function pinnedItem(deps: ToolDeps, ctx: ToolContext, id: string): Promise<ContentItem> {
  const item = await getContent(deps.db, ctx.caller.accountId, id);
  if (ctx.projectId && item.cms_link?.project_id !== ctx.projectId) throw contentNotFound();
  return item;
}

export async function listItems(deps: ToolDeps, ctx: ToolContext, args: z.output<typeof listArgs>): Promise<ToolOutcome> {
  const { page = 1, limit = 25, sort = 'updated', published_since, ...rest } = args;
  const filter = { ...rest, published_since: published_since === undefined ? undefined : new Date(published_since) };
  const accountId = ctx.caller.accountId;
  if (!ctx.projectId) return okOutcome(200, await listContent(deps.db, accountId, filter, sort, { page, limit }));
  const window = { limit, offset: offsetOf({ page, limit }) };
  const { rows, total } = await pinnedContentPage(deps.db, accountId, ctx.projectId, filter, sort, window);
  const urls = await urlsOf(deps.db, accountId, rows);
  const data = rows.map((row, i) => ({ ...toContentItem(row), url: urls[i].url }));
  return okOutcome(200, listEnvelope(data, total, { page, limit }));
}

/** What the agent get answers: the item, its url and url_source, its scheduled publish. */
export async function getItem(deps: ToolDeps, ctx: ToolContext, args: z.output<typeof itemArgs>): Promise<ToolOutcome> {
  const item = await pinnedItem(deps, ctx, args.content_id);
  const accountId = ctx.caller.accountId;
  return okOutcome(200, {
    ...item,
    ...(await urlOf(deps.db, accountId, item)),
    scheduled_publish: await scheduledPublishOf(deps.db, accountId, item.id),
  });
}

/** The agent PATCH: top-level keyword wins, a version is recorded as the turn's caller. */
export async function updateItem(deps: ToolDeps, ctx: ToolContext, args: z.output<typeof updateArgs>): Promise<ToolOutcome> {
  const { content_id, ...body } = args;
  await pinnedItem(deps, ctx, content_id);
  const item = await updateContent(appDepsOf(deps), ctx.caller.accountId, content_id, body, 'top_level', contentActorOf(ctx.caller));
  return okOutcome(200, item, [{ type: 'content_item', id: item.id, action: 'updated', tool: 'content_update' }]);
}

export async function seoCheckItem(deps: ToolDeps, ctx: ToolContext, args: z.output<typeof itemArgs>): Promise<ToolOutcome> {
  return okOutcome(200, seoCheck(await pinnedItem(deps, ctx, args.content_id)));
}

export async function previewImages(deps: ToolDeps, ctx: ToolContext, args: z.output<typeof itemArgs>): Promise<ToolOutcome> {
  const item = await pinnedItem(deps, ctx, args.content_id);
  return okOutcome(200, await imagesPreview(deps.db, ctx.caller.accountId, item.id, new Date()));
}
