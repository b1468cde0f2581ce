/** The programmatic side of the simulator: tests and the sandbox add sites, collections, items, pages and tokens. */
import {
  iso,
  newId,
  randomHex,
  slugify,
  tokenRateLimit,
  type Plan,
  type SimCollection,
  type SimField,
  type SimItem,
  type SimLocale,
  type SimPage,
  type SimSite,
  type SimState,
  type SimToken,
} from './state';
import { emitPageCreated, emitPageDeleted } from './events';
import { siteData } from './siteData';

export interface SiteInput {
  id?: string;
  displayName: string;
  shortName?: string;
  workspaceId?: string;
  plan?: Plan;
  /** An Enterprise site's custom requests per minute (the platform agrees these above 120); the plan's when absent. */
  rateLimitPerMinute?: number;
  /** Custom domain host names, e.g. `www.example.test`. */
  customDomains?: string[];
  /** Primary locale tag; default `en`. */
  primaryLocale?: string;
  /** Secondary locale tags, e.g. `['fr', 'de']`. */
  secondaryLocales?: string[];
  /** Enterprise plan: redirects, robots.txt, well-known, llms.txt and the activity log answer; default false (402). */
  enterprise?: boolean;
  /** Ecommerce enabled; default false (409 ecommerce_not_enabled). */
  ecommerce?: boolean;
}

function locale(tag: string, primary: boolean): SimLocale {
  return {
    id: newId(),
    cmsLocaleId: newId(),
    enabled: true,
    displayName: tag,
    ...(primary ? { redirect: true } : {}),
    subdirectory: primary ? '' : tag,
    tag,
  };
}

export function addSite(state: SimState, input: SiteInput): SimSite {
  const id = input.id ?? newId();
  if (state.sites.has(id)) throw new Error(`site platform simulator: site ${id} already exists`);
  const now = iso(state.now());
  const site: SimSite = {
    id,
    workspaceId: input.workspaceId ?? 'workspace-1',
    displayName: input.displayName,
    shortName: input.shortName ?? slugify(input.displayName),
    timeZone: 'UTC',
    plan: input.plan ?? 60,
    ...(input.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: input.rateLimitPerMinute }),
    createdOn: now,
    lastUpdated: now,
    lastPublished: null,
    customDomains: (input.customDomains ?? []).map((url) => ({ id: newId(), url, lastPublished: null })),
    locales: { primary: locale(input.primaryLocale ?? 'en', true), secondary: (input.secondaryLocales ?? []).map((t) => locale(t, false)) },
  };
  state.sites.set(id, site);
  Object.assign(siteData(state, id), { enterprise: input.enterprise ?? false, ecommerce: input.ecommerce ?? false });
  return site;
}

export interface CollectionInput {
  id?: string;
  displayName: string;
  singularName?: string;
  slug?: string;
  /** Fields beside the built-in name and slug. */
  fields?: Array<{ slug: string; type?: string; displayName?: string; isRequired?: boolean }>;
}

function field(slug: string, type: string, displayName: string, isRequired: boolean): SimField {
  return { id: newId(), isEditable: true, isRequired, type, slug, displayName, helpText: null };
}

export function addCollection(state: SimState, siteId: string, input: CollectionInput): SimCollection {
  if (!state.sites.has(siteId)) throw new Error(`site platform simulator: no site ${siteId}`);
  const now = iso(state.now());
  const collection: SimCollection = {
    id: input.id ?? newId(),
    siteId,
    displayName: input.displayName,
    singularName: input.singularName ?? input.displayName,
    slug: input.slug ?? slugify(input.displayName),
    createdOn: now,
    lastUpdated: now,
    fields: [
      field('name', 'PlainText', 'Name', true),
      field('slug', 'PlainText', 'Slug', true),
      ...(input.fields ?? []).map((f) => field(f.slug, f.type ?? 'PlainText', f.displayName ?? f.slug, f.isRequired ?? false)),
    ],
    items: [],
  };
  state.collections.set(collection.id, collection);
  return collection;
}

export interface ItemInput {
  fieldData?: Record<string, unknown>;
  isDraft?: boolean;
  isArchived?: boolean;
  /** Seeds the item as live. */
  published?: boolean;
}

export function addItems(state: SimState, collectionId: string, items: ItemInput[] | number): SimItem[] {
  const collection = state.collections.get(collectionId);
  if (!collection) throw new Error(`site platform simulator: no collection ${collectionId}`);
  const site = state.sites.get(collection.siteId)!;
  const inputs = typeof items === 'number' ? Array.from({ length: items }, () => ({})) : items;
  const now = iso(state.now());
  const added = inputs.map((input: ItemInput): SimItem => {
    const n = collection.items.length + 1;
    const name = String(input.fieldData?.name ?? `${collection.singularName} ${n}`);
    const item: SimItem = {
      id: newId(),
      cmsLocaleId: site.locales.primary.cmsLocaleId,
      createdOn: now,
      lastUpdated: now,
      lastPublished: input.published ? now : null,
      isArchived: input.isArchived ?? false,
      isDraft: input.isDraft ?? false,
      fieldData: { ...input.fieldData, name, slug: String(input.fieldData?.slug ?? `${slugify(name)}-${n}`) },
    };
    collection.items.push(item);
    return item;
  });
  return added;
}

export interface PageInput {
  id?: string;
  title: string;
  slug?: string;
  parentId?: string | null;
  seo?: { title?: string; description?: string };
}

export function addPage(state: SimState, siteId: string, input: PageInput): SimPage {
  const site = state.sites.get(siteId);
  if (!site) throw new Error(`site platform simulator: no site ${siteId}`);
  const now = iso(state.now());
  const page: SimPage = {
    id: input.id ?? newId(),
    siteId,
    parentId: input.parentId ?? null,
    collectionId: null,
    createdOn: now,
    lastUpdated: now,
    archived: false,
    draft: false,
    meta: new Map(),
  };
  page.meta.set(site.locales.primary.id, {
    title: input.title,
    slug: input.slug ?? slugify(input.title),
    seo: { title: input.seo?.title ?? input.title, description: input.seo?.description ?? '' },
    openGraph: { title: input.title, titleCopied: true, description: '', descriptionCopied: true },
  });
  state.pages.set(page.id, page);
  // The platform has no page-create API: pages come from the designer, and so does page_created.
  emitPageCreated(state, page);
  return page;
}

/** Deletes a page as the designer does (the API cannot), firing page_deleted; its DOM and page custom code go too. */
export function deletePage(state: SimState, siteId: string, pageId: string): SimPage {
  const page = state.pages.get(pageId);
  if (!page || page.siteId !== siteId) throw new Error(`site platform simulator: no page ${pageId} on site ${siteId}`);
  state.pages.delete(pageId);
  const data = siteData(state, siteId);
  data.dom.delete(pageId);
  data.pageCode.delete(pageId);
  emitPageDeleted(state, page);
  return page;
}

export interface TokenInput {
  scopes: string[];
  /** Requests per minute; default the best plan among the token's sites. */
  plan?: Plan;
  /** Benchmarks only: an advertised limit no real plan has (wins over `plan`). */
  rateLimitPerMinute?: number;
  /** Default every site. */
  siteIds?: string[];
  /**
   * Lets this site token register webhooks (delivered unsigned). The platform refuses webhook creation to site
   * tokens by default (403), which is what the simulator does without this flag.
   */
  webhooksAllowed?: boolean;
}

/** A pasted site API token: no application and no authorizing user. */
export function issueToken(state: SimState, input: TokenInput): string {
  const siteIds = input.siteIds ?? [...state.sites.keys()];
  const sites = siteIds.map((id) => state.sites.get(id)).filter((s) => s !== undefined);
  const token = randomHex(32);
  const record: SimToken = {
    token,
    kind: 'site_token',
    scopes: [...input.scopes],
    rateLimit: input.rateLimitPerMinute ?? input.plan ?? tokenRateLimit(sites),
    siteIds,
    workspaceIds: [...new Set(sites.map((s) => s.workspaceId))],
    createdOn: iso(state.now()),
    revoked: false,
    ...(input.webhooksAllowed ? { webhooksAllowed: true } : {}),
  };
  state.tokens.set(token, record);
  return token;
}
