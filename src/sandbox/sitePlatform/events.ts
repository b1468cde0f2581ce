/**
 * Webhook events: the payload of each trigger, shaped like the reference's webhook types (the official SDK's
 * CollectionItemCreated/Changed/Removed/Published/Unpublished, PageCreatedWebhook, PageDeletedWebhook,
 * PageMetadataUpdatedWebhook, SitePublish, FormSubmissionTrigger, Comment). Handlers and seeding helpers call
 * `emit…`, which only queues the event on the state; the deliverer sends it after the answer is written.
 */
import type { SimComment, SimForm, SimSubmission } from './siteData';
import { iso, type SimCollection, type SimItem, type SimPage, type SimSite, type SimState } from './state';

/** The triggers the simulator fires (the ecommerce triggers can be registered but never fire). */
export const FIRED_TRIGGERS = [
  'site_publish',
  'collection_item_created',
  'collection_item_changed',
  'collection_item_deleted',
  'collection_item_published',
  'collection_item_unpublished',
  'page_created',
  'page_deleted',
  'page_metadata_updated',
  'form_submission',
  'comment_created',
] as const;
export type FiredTrigger = (typeof FIRED_TRIGGERS)[number];

export type ItemTrigger = Extract<FiredTrigger, `collection_item_${string}`>;

function emit(state: SimState, siteId: string, triggerType: FiredTrigger, payload: Record<string, unknown>, formName?: string): void {
  state.events.push({ siteId, triggerType, payload: structuredClone(payload), ...(formName === undefined ? {} : { formName }) });
}

/** The site's host name on the platform's own (simulated) subdomain. */
export function subdomainHost(site: SimSite): string {
  return `${site.shortName}.sim.test`;
}

/** The host a page is served on: the first custom domain, else the platform subdomain. */
function siteHost(site: SimSite): string {
  return site.customDomains[0]?.url ?? subdomainHost(site);
}

/** One event per locale record, each the item as the reference's single-locale item payload. */
export function emitItems(state: SimState, triggerType: ItemTrigger, collection: SimCollection, items: SimItem[]): void {
  const site = state.sites.get(collection.siteId);
  if (!site) return;
  for (const item of items) {
    emit(state, site.id, triggerType, {
      id: item.id,
      siteId: site.id,
      workspaceId: site.workspaceId,
      collectionId: collection.id,
      cmsLocaleId: item.cmsLocaleId,
      lastPublished: item.lastPublished,
      lastUpdated: item.lastUpdated,
      createdOn: item.createdOn,
      isArchived: item.isArchived,
      isDraft: item.isDraft,
      fieldData: item.fieldData,
    });
  }
}

/** The page's title and path in the site's primary locale. */
function pageTitleAndPath(state: SimState, page: SimPage): { pageTitle: string; publishedPath: string } {
  const site = state.sites.get(page.siteId)!;
  const meta = page.meta.get(site.locales.primary.id) ?? [...page.meta.values()][0];
  return { pageTitle: meta?.title ?? '', publishedPath: `/${meta?.slug ?? ''}` };
}

export function emitPageCreated(state: SimState, page: SimPage): void {
  emit(state, page.siteId, 'page_created', {
    siteId: page.siteId,
    pageId: page.id,
    ...pageTitleAndPath(state, page),
    createdOn: page.createdOn,
  });
}

export function emitPageDeleted(state: SimState, page: SimPage): void {
  emit(state, page.siteId, 'page_deleted', {
    siteId: page.siteId,
    pageId: page.id,
    ...pageTitleAndPath(state, page),
    deletedOn: iso(state.now()),
  });
}

export function emitPageMetadataUpdated(state: SimState, page: SimPage): void {
  emit(state, page.siteId, 'page_metadata_updated', {
    siteId: page.siteId,
    pageId: page.id,
    ...pageTitleAndPath(state, page),
    lastUpdated: page.lastUpdated,
  });
}

/** `domains` are the host names the publish reached; `publishedBy` names the authorizing user. */
export function emitSitePublish(state: SimState, site: SimSite, publishedOn: string, domains: string[]): void {
  const u = state.user;
  emit(state, site.id, 'site_publish', {
    siteId: site.id,
    publishedOn,
    domains,
    publishedBy: { displayName: `${u.firstName} ${u.lastName}` },
  });
}

export interface SubmissionEventInput {
  site: SimSite;
  form: SimForm;
  submission: SimSubmission;
  /** The page the form sits on, when the simulator knows it. */
  page?: SimPage;
}

/** The reference's form_submission payload, plus the page fields the platform's deliveries carry. */
export function emitFormSubmission(state: SimState, input: SubmissionEventInput): Record<string, unknown> {
  const { site, form, submission, page } = input;
  const publishedPath = page ? pageTitleAndPath(state, page).publishedPath : '/';
  const payload: Record<string, unknown> = {
    name: form.displayName,
    siteId: site.id,
    data: submission.formResponse,
    schema: Object.entries(form.fields).map(([fieldElementId, f]) => ({
      fieldName: String((f as { displayName?: unknown }).displayName ?? fieldElementId),
      fieldType: 'FormTextInput',
      fieldElementId,
    })),
    submittedAt: submission.dateSubmitted,
    id: submission.id,
    formId: form.id,
    formElementId: form.formElementId,
    pageId: page?.id ?? (form.pageId || null),
    publishedPath,
    pageUrl: `https://${siteHost(site)}${publishedPath}`,
  };
  emit(state, site.id, 'form_submission', payload, form.displayName);
  return structuredClone(payload);
}

/** A new thread (`type: 'thread'`) or a reply (`type: 'reply'`, `commentId` the reply) as the reference's CommentPayload. */
export function emitCommentCreated(state: SimState, site: SimSite, comment: SimComment): void {
  const reply = comment.threadId !== comment.id;
  emit(state, site.id, 'comment_created', {
    threadId: comment.threadId,
    ...(reply ? { commentId: comment.id } : {}),
    type: reply ? 'reply' : 'thread',
    siteId: site.id,
    pageId: comment.pageId,
    localeId: site.locales.primary.id,
    breakpoint: 'main',
    url: `https://${subdomainHost(site)}/?comment=${comment.threadId}`,
    content: comment.content,
    isResolved: comment.isResolved,
    author: comment.author,
    mentionedUsers: [],
    createdOn: comment.createdOn,
    lastUpdated: comment.lastUpdated,
  });
}
