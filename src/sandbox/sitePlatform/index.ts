/**
 * A loopback simulator of the site platform (Data API v2, beta paths served alike) for tests and the sandbox mode:
 * OAuth, token introspection, sites with locales and custom domains, publish, CMS collections and items with publish
 * state, page metadata, page and component DOM per locale, assets with a loopback upload, custom code, forms, comments,
 * ecommerce, Enterprise-only site configuration, webhooks, the activity log, per-token rate limits by plan, platform
 * error bodies, and faults on demand.
 */
import { FaultList, type FaultSpec } from './faults';
import { MinuteWindows } from './rateLimit';
import {
  addCollection,
  addItems,
  addPage,
  addSite,
  issueToken,
  type CollectionInput,
  type ItemInput,
  type PageInput,
  type SiteInput,
  type TokenInput,
} from './seed';
import { startServer } from './server';
import {
  addAsset,
  addCommentThread,
  addComponent,
  addForm,
  addOrder,
  addSubmission,
  type AssetInput,
  type ComponentInput,
  type FormInput,
} from './seedExtras';
import {
  siteData,
  type SiteData,
  type SimAsset,
  type SimComment,
  type SimComponent,
  type SimForm,
  type SimOrder,
  type SimSubmission,
} from './siteData';
import {
  createState,
  type RequestLogEntry,
  type SimApp,
  type SimCollection,
  type SimItem,
  type SimPage,
  type SimSite,
  type SimUser,
} from './state';

export type { FaultSpec, FaultKind } from './faults';
export type { CollectionInput, ItemInput, PageInput, SiteInput, TokenInput } from './seed';
export type { AssetInput, ComponentInput, FormInput } from './seedExtras';
export type { SiteData, SimAsset, SimComment, SimComponent, SimForm, SimOrder, SimSubmission } from './siteData';
export type { Plan, RequestLogEntry, SimApp, SimCollection, SimItem, SimPage, SimSite, SimUser } from './state';

export interface SitePlatformSimulator {
  /** Serves OAuth at `/oauth/*` and the Data API at `/v2/*`, `/beta/*` (and unprefixed). */
  baseUrl: string;
  addApp(app: SimApp): void;
  /** The user every OAuth authorization is granted by. */
  setUser(user: Partial<SimUser>): SimUser;
  addSite(site: SiteInput): SimSite;
  addCollection(siteId: string, collection: CollectionInput): SimCollection;
  /** Adds items (a number generates that many). */
  addItems(collectionId: string, items: ItemInput[] | number): SimItem[];
  addPage(siteId: string, page: PageInput): SimPage;
  addComponent(siteId: string, component: ComponentInput): SimComponent;
  /** An uploaded asset (both upload steps done). */
  addAsset(siteId: string, asset: AssetInput): SimAsset;
  /** Forms are listed only after the site's first publish (409 forms_require_republish before). */
  addForm(siteId: string, form: FormInput): SimForm;
  addSubmission(siteId: string, formId: string, response: Record<string, unknown>): SimSubmission;
  addCommentThread(siteId: string, thread: { pageId: string; content: string }): SimComment;
  addOrder(siteId: string, order?: { customer?: string }): SimOrder;
  /** Live per-site state beyond sites, pages and CMS (plan and ecommerce flags included; mutating it changes answers). */
  siteData(siteId: string): SiteData;
  /** Issues a pasted site token; returns the token string. */
  issueToken(input: TokenInput): string;
  /** Live state for assertions (mutating it changes what the server answers). */
  site(siteId: string): SimSite | undefined;
  item(collectionId: string, itemId: string): SimItem | undefined;
  /** Fails the next matching request(s): 5xx, timeout (no answer) or a malformed JSON body. */
  injectFault(fault: FaultSpec): void;
  clearFaults(): void;
  /** Lifts (or restores) the per-token rate limit, for benchmarks. */
  liftRateLimit(lifted?: boolean): void;
  requests(): RequestLogEntry[];
  stop(): Promise<void>;
}

export interface SimulatorOptions {
  /** Default 0: a free port. Always bound to 127.0.0.1. */
  port?: number;
  /** The clock for rate-limit windows, publish cooldown and timestamps; default Date.now. */
  now?: () => number;
}

export async function startSitePlatformSimulator(options: SimulatorOptions = {}): Promise<SitePlatformSimulator> {
  const state = createState(options.now ?? Date.now);
  const windows = new MinuteWindows(state.now);
  const faults = new FaultList();
  const server = await startServer(state, windows, faults, options.port ?? 0);
  return {
    baseUrl: server.baseUrl,
    addApp: (app) => void state.apps.set(app.clientId, { ...app }),
    setUser: (user) => Object.assign(state.user, user),
    addSite: (site) => addSite(state, site),
    addCollection: (siteId, collection) => addCollection(state, siteId, collection),
    addItems: (collectionId, items) => addItems(state, collectionId, items),
    addPage: (siteId, page) => addPage(state, siteId, page),
    addComponent: (siteId, component) => addComponent(state, siteId, component),
    addAsset: (siteId, asset) => addAsset(state, siteId, asset),
    addForm: (siteId, form) => addForm(state, siteId, form),
    addSubmission: (siteId, formId, response) => addSubmission(state, siteId, formId, response),
    addCommentThread: (siteId, thread) => addCommentThread(state, siteId, thread),
    addOrder: (siteId, order) => addOrder(state, siteId, order),
    siteData: (siteId) => siteData(state, siteId),
    issueToken: (input) => issueToken(state, input),
    site: (siteId) => state.sites.get(siteId),
    item: (collectionId, itemId) => state.collections.get(collectionId)?.items.find((i) => i.id === itemId),
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    liftRateLimit: (lifted = true) => {
      windows.lifted = lifted;
    },
    requests: () => state.log.map((r) => ({ ...r })),
    stop: () => server.close(),
  };
}
