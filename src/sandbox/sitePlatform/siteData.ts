/**
 * Per-site state beyond sites, pages and CMS: DOM, components, assets, custom code, forms, comments, ecommerce,
 * site configuration files, webhooks and the activity log. Created on first use so seeding a site stays cheap.
 */
import type { SimState } from './state';

export interface DomNode {
  id: string;
  type: 'text';
  text: { html: string; text: string };
  attributes: Record<string, string>;
}
export interface ComponentProperty {
  propertyId: string;
  type: 'Plain Text' | 'Rich Text';
  label: string;
  text: { html: string; text: string };
}
export interface SimComponent {
  id: string;
  name: string;
  group: string;
  description: string;
  readonly: boolean;
  /** Body nodes and property values per locale id; the primary locale is seeded. */
  dom: Map<string, DomNode[]>;
  properties: Map<string, ComponentProperty[]>;
}
export interface SimAsset {
  id: string;
  fileName: string;
  displayName: string;
  originalFileName: string;
  contentType: string;
  size: number;
  fileHash: string;
  parentFolder: string | null;
  altText: string | null;
  uploaded: boolean;
  createdOn: string;
  lastUpdated: string;
}
export interface SimAssetFolder {
  id: string;
  displayName: string;
  parentFolder: string | null;
  createdOn: string;
  lastUpdated: string;
}
export interface SimScript {
  id: string;
  displayName: string;
  version: string;
  hostedLocation: string;
  integrityHash: string | null;
  canCopy: boolean;
  sourceCode?: string;
  createdOn: string;
  lastUpdated: string;
}
export interface AppliedScript {
  id: string;
  location: 'header' | 'footer';
  version: string;
  attributes?: Record<string, unknown>;
}
export interface CustomCodeBlock {
  scripts: AppliedScript[];
  createdOn: string;
  lastUpdated: string;
}
export interface SimGoogleTag {
  tagId: string;
  displayName: string;
  order: number;
}
export interface SimForm {
  id: string;
  displayName: string;
  /** The form element's id in the page (a UUID), as the reference's Form and form_submission payload carry it. */
  formElementId: string;
  pageId: string;
  pageName: string;
  fields: Record<string, unknown>;
  createdOn: string;
  lastUpdated: string;
}
export interface SimSubmission {
  id: string;
  formId: string;
  displayName: string;
  dateSubmitted: string;
  formResponse: Record<string, unknown>;
}
export interface SimComment {
  id: string;
  threadId: string;
  pageId: string;
  content: string;
  isResolved: boolean;
  author: { userId: string; email: string; name: string };
  createdOn: string;
  lastUpdated: string;
}
export interface SimSku {
  id: string;
  fieldData: Record<string, unknown>;
  inventory: { inventoryType: 'infinite' | 'finite'; quantity: number };
}
export interface SimProduct {
  id: string;
  fieldData: Record<string, unknown>;
  skus: SimSku[];
  createdOn: string;
  lastUpdated: string;
}
export interface SimOrder {
  orderId: string;
  status: 'unfulfilled' | 'fulfilled' | 'refunded';
  comment: string;
  orderComment: string;
  shippingProvider: string | null;
  shippingTracking: string | null;
  fulfilledOn: string | null;
  refundedOn: string | null;
  acceptedOn: string;
  customerInfo: { fullName: string; email: string };
  purchasedItems: Array<{ productId: string; variantId: string; count: number }>;
}
export interface SimRedirect {
  id: string;
  fromUrl: string;
  toUrl: string;
}
export interface RobotsRule {
  userAgent: string;
  allows: string[];
  disallows: string[];
}
export interface SimWebhook {
  id: string;
  triggerType: string;
  url: string;
  filter: Record<string, unknown> | null;
  createdOn: string;
  lastTriggered: string | null;
  /**
   * Simulator-only, never in an answer: who registered it. An OAuth registration is signed with the client secret of
   * `clientId`'s app; a site-token or dashboard ('manual') registration is delivered unsigned.
   */
  registeredBy: { kind: 'oauth'; clientId: string } | { kind: 'site_token' } | { kind: 'manual' };
}
export interface ActivityEntry {
  id: string;
  createdOn: string;
  lastUpdated: string;
  event: string;
  resourceOperation: string;
  resourceId: string;
  resourceName: string;
  user: { id: string; displayName: string };
}

export interface SiteData {
  /** Enterprise plan: unlocks redirects, robots.txt, well-known files, llms.txt and the activity log. */
  enterprise: boolean;
  ecommerce: boolean;
  /** Body nodes per page per locale id. */
  dom: Map<string, Map<string, DomNode[]>>;
  /** JSON-LD schema markup per `pageId:localeId`. */
  schema: Map<string, unknown>;
  components: SimComponent[];
  assets: SimAsset[];
  folders: SimAssetFolder[];
  scripts: SimScript[];
  siteCode: CustomCodeBlock | null;
  pageCode: Map<string, CustomCodeBlock>;
  googleTags: SimGoogleTag[];
  forms: SimForm[];
  submissions: SimSubmission[];
  comments: SimComment[];
  products: SimProduct[];
  orders: SimOrder[];
  redirects: SimRedirect[];
  robots: { rules: RobotsRule[]; sitemap: string | null } | null;
  wellKnown: Map<string, { fileData: string; contentType: string }>;
  llmsTxt: string | null;
  webhooks: SimWebhook[];
  activity: ActivityEntry[];
}

const store = new WeakMap<SimState, Map<string, SiteData>>();

export function siteData(state: SimState, siteId: string): SiteData {
  let sites = store.get(state);
  if (!sites) store.set(state, (sites = new Map()));
  let data = sites.get(siteId);
  if (!data) {
    data = {
      enterprise: false,
      ecommerce: false,
      dom: new Map(),
      schema: new Map(),
      components: [],
      assets: [],
      folders: [],
      scripts: [],
      siteCode: null,
      pageCode: new Map(),
      googleTags: [],
      forms: [],
      submissions: [],
      comments: [],
      products: [],
      orders: [],
      redirects: [],
      robots: null,
      wellKnown: new Map(),
      llmsTxt: null,
      webhooks: [],
      activity: [],
    };
    sites.set(siteId, data);
  }
  return data;
}

/** The site a site-scoped object (asset, folder, form, submission, webhook) belongs to, searching every site. */
export function findInSites<T>(state: SimState, pick: (d: SiteData) => T | undefined): { siteId: string; value: T } | undefined {
  for (const [siteId, data] of store.get(state) ?? []) {
    const value = pick(data);
    if (value !== undefined) return { siteId, value };
  }
  return undefined;
}
