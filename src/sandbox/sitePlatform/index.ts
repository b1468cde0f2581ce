/**
 * A loopback simulator of the site platform (Data API v2, beta paths served alike) for tests and the sandbox mode:
 * OAuth, token introspection, sites with locales and custom domains, publish, CMS collections and items with publish
 * state, page metadata, page and component DOM per locale, assets with a loopback upload, custom code, forms, comments,
 * ecommerce, Enterprise-only site configuration, webhooks with signed deliveries and retries, the activity log,
 * per-token rate limits by plan, platform error bodies, and faults on demand.
 *
 * Webhook deliveries (deliveries.ts): each registration fires on its trigger after the mutating request is answered —
 * collection_item_created/changed/deleted/published/unpublished (one per CMS locale record) from the item, bulk item,
 * publish and unpublish routes; page_metadata_updated from page metadata writes (single and bulk); site_publish from
 * the publish route; page_created/page_deleted from addPage/deletePage (the platform has no page API);
 * form_submission from submitForm (filtered registrations by form name); comment_created from addCommentThread and
 * the reply route. OAuth registrations are signed with the app's client secret (x-webflow-timestamp,
 * x-webflow-signature); site-token (`webhooksAllowed`) and registerWebhookManually registrations are unsigned. A
 * failed attempt is retried 3 times `webhookRetryIntervalMs` apart. A site holds at most 75 registrations per trigger
 * type (the 76th create answers 400 validation_error). Verification failures on demand: injectWebhookFault
 * (bad_signature, stale_timestamp, unsigned); replays: redeliver(index). Deliveries of one change travel in parallel,
 * in no guaranteed order. Seeding helpers other than addPage/deletePage/submitForm/addCommentThread fire nothing.
 */
import {
  DEFAULT_WEBHOOK_RETRY_INTERVAL_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  WebhookDeliverer,
  type RedeliverOptions,
  type WebhookDelivery,
  type WebhookFaultSpec,
} from './deliveries';
import { FaultList, type FaultSpec } from './faults';
import { MinuteWindows } from './rateLimit';
import {
  addCollection,
  addItems,
  addPage,
  addSite,
  deletePage,
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
  submitForm,
  type AssetInput,
  type ComponentInput,
  type FormInput,
  type SubmitOptions,
} from './seedExtras';
import { addWebhook, webhookView, type WebhookInput } from './routes/webhooks';
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
export type { AssetInput, ComponentInput, FormInput, SubmitOptions } from './seedExtras';
export type { SiteData, SimAsset, SimComment, SimComponent, SimForm, SimOrder, SimSubmission, SimWebhook } from './siteData';
export type { RedeliverOptions, WebhookDelivery, WebhookFaultKind, WebhookFaultSpec } from './deliveries';
export type { WebhookInput } from './routes/webhooks';
export { signatureHeaders } from './deliveries';

/** A registration as the webhooks API lists it. */
export type WebhookView = ReturnType<typeof webhookView>;
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
  /** Adds a page as the designer does; fires page_created. */
  addPage(siteId: string, page: PageInput): SimPage;
  /** Deletes a page as the designer does; fires page_deleted. */
  deletePage(siteId: string, pageId: string): SimPage;
  addComponent(siteId: string, component: ComponentInput): SimComponent;
  /** An uploaded asset (both upload steps done). */
  addAsset(siteId: string, asset: AssetInput): SimAsset;
  /** Forms are listed only after the site's first publish (409 forms_require_republish before). */
  addForm(siteId: string, form: FormInput): SimForm;
  /** Stores a submission without any delivery (history, for backfills). */
  addSubmission(siteId: string, formId: string, response: Record<string, unknown>): SimSubmission;
  /**
   * A visitor submits the form: the submission is stored (the forms API lists it once the site is published) and
   * form_submission fires; resolves the stored submission and the delivered payload.
   */
  submitForm(
    siteId: string,
    formId: string,
    data: Record<string, unknown>,
    options?: SubmitOptions,
  ): { submission: SimSubmission; payload: Record<string, unknown> };
  /** A designer comment thread; fires comment_created. */
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
  /**
   * A registration made in the platform's dashboard (no token): delivered unsigned. Throws past 75 per trigger type
   * on the site, as the API create refuses the 76th.
   */
  registerWebhookManually(siteId: string, webhook: WebhookInput): WebhookView;
  /** Every delivery attempt so far (retries and redeliveries included), in the order they finished. */
  webhookDeliveries(): WebhookDelivery[];
  /** Resolves once no delivery is pending: answers awaited, attempts finished, retries done. */
  flushWebhooks(): Promise<void>;
  /**
   * Sends the body of attempt `index` once more to its URL (no retries): its headers verbatim (a replay), or
   * `{ resign: true }` for a fresh timestamp and signature (a platform resend). Resolves with the new attempt.
   */
  redeliver(index: number, options?: RedeliverOptions): Promise<WebhookDelivery>;
  /** The next matching delivery attempt(s) fail verification: bad_signature, stale_timestamp or unsigned. */
  injectWebhookFault(fault: WebhookFaultSpec): void;
  clearWebhookFaults(): void;
  /** Cancels pending retries and open deliveries, then closes the server. */
  stop(): Promise<void>;
}

export interface SimulatorOptions {
  /** Default 0: a free port. Always bound to 127.0.0.1. */
  port?: number;
  /**
   * The clock for rate-limit windows, publish cooldown and timestamps; default Date.now. Webhook signature
   * timestamps and retry waits use the wall clock whatever this is (the receiver checks them against its own).
   */
  now?: () => number;
  /** Wait before each of the 3 webhook retries; default 600_000 (the platform's ten minutes). */
  webhookRetryIntervalMs?: number;
  /** Per-attempt webhook delivery timeout; default 10_000. */
  webhookTimeoutMs?: number;
}

export async function startSitePlatformSimulator(options: SimulatorOptions = {}): Promise<SitePlatformSimulator> {
  const state = createState(options.now ?? Date.now);
  const windows = new MinuteWindows(state.now);
  const faults = new FaultList();
  const webhooks = new WebhookDeliverer(state, {
    retryIntervalMs: options.webhookRetryIntervalMs ?? DEFAULT_WEBHOOK_RETRY_INTERVAL_MS,
    timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
  });
  const server = await startServer(state, windows, faults, webhooks, options.port ?? 0);
  /** Runs a seeding call, then releases the webhook events it raised (asynchronously: the caller never waits). */
  const seeding = <T>(run: () => T): T => {
    try {
      return run();
    } finally {
      webhooks.release(state.events.splice(0));
    }
  };
  return {
    baseUrl: server.baseUrl,
    addApp: (app) => void state.apps.set(app.clientId, { ...app }),
    setUser: (user) => Object.assign(state.user, user),
    addSite: (site) => addSite(state, site),
    addCollection: (siteId, collection) => addCollection(state, siteId, collection),
    addItems: (collectionId, items) => addItems(state, collectionId, items),
    addPage: (siteId, page) => seeding(() => addPage(state, siteId, page)),
    deletePage: (siteId, pageId) => seeding(() => deletePage(state, siteId, pageId)),
    addComponent: (siteId, component) => addComponent(state, siteId, component),
    addAsset: (siteId, asset) => addAsset(state, siteId, asset),
    addForm: (siteId, form) => addForm(state, siteId, form),
    addSubmission: (siteId, formId, response) => addSubmission(state, siteId, formId, response),
    submitForm: (siteId, formId, data, opts) => seeding(() => submitForm(state, siteId, formId, data, opts)),
    addCommentThread: (siteId, thread) => seeding(() => addCommentThread(state, siteId, thread)),
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
    registerWebhookManually(siteId, webhook) {
      const site = state.sites.get(siteId);
      if (!site) throw new Error(`site platform simulator: no site ${siteId}`);
      if (webhook.filter && webhook.triggerType !== 'form_submission') {
        throw new Error('site platform simulator: a filter is only supported for the form_submission trigger type');
      }
      const added = addWebhook(state, siteId, webhook, { kind: 'manual' });
      if (!added.ok) throw new Error(`site platform simulator: ${(added.response.body as { message: string }).message}`);
      return webhookView(siteId, site.workspaceId, added.hook);
    },
    webhookDeliveries: () => webhooks.deliveries(),
    flushWebhooks: () => webhooks.flush(),
    redeliver: (index, opts) => webhooks.redeliver(index, opts),
    injectWebhookFault: (fault) => webhooks.injectFault(fault),
    clearWebhookFaults: () => webhooks.clearFaults(),
    stop: async () => {
      webhooks.stop();
      await server.close();
      await webhooks.flush();
    },
  };
}
