import { ApiError } from '../../http/errors';
import { raiseInboxItem } from '../../inbox/service';
import {
  createSiteWebhook,
  deleteWebhook,
  listSiteWebhooks,
  type PlatformWebhook,
  type SitePlatformClient,
} from '../../clients/sitePlatform';
import type { SitePlatformDeps } from '../connections/deps';
import { findConnection, listSitesOfConnection, updateConnection, type ConnectionRow } from '../connections/store';
import { notConfigured, openSealed } from '../connections/tokens';
import { clientFor } from '../operations/clients';
import { findOrphans, removeOrphans } from './orphans';
import { withSiteWebhookLock } from './siteLock';
import { deleteSubscription, findFormRouting, listSubscriptions, upsertSubscription, type FormRoutingRow } from './subscriptionsStore';
import { isReceiverUrlOf, receiverUrlOf, urlTokenHash, urlTokenOf } from './urlToken';
import { SITE_TRIGGERS } from './events';

/** doc2 Events › Registered triggers (11). form_submission is unfiltered unless the site was switched to per-form routing. */
export const REGISTERED_TRIGGERS = SITE_TRIGGERS;

/** doc2 Limits: registrations per trigger per site. The service refuses a 76th locally. */
export const MAX_REGISTRATIONS_PER_TRIGGER = 75;

export interface SiteRegistrationReport {
  site_id: string;
  /** Registrations this run created on the platform. */
  created: number;
  /** Matching registrations (same trigger, URL and filter) found on the platform and recorded instead of duplicated. */
  adopted: number;
  /**
   * Stale registrations of this connection deleted after the new ones existed (create first, delete last), and
   * registrations of this service's receiver whose connection is gone (disconnected or no longer existing).
   */
  deleted: number;
  /** Per trigger, what went wrong (a coded error: webhook_limit_reached, site_token_refused, rate_limited, platform_upstream, …). */
  failed: Array<{ trigger_type: string; code: string }>;
}

export interface RegistrationReport {
  /** The platform refused to register for this site token: the webhooks have to be added by hand. */
  skipped?: 'site_token_refused';
  /** Set with `skipped` only: the receiver URL, for the connect answer to show once. */
  receiver_url?: string;
  sites: SiteRegistrationReport[];
}

/** One registration the service wants on a site. */
export interface DesiredWebhook {
  triggerType: string;
  filter: { name: string } | null;
}

interface SiteOutcome {
  report: SiteRegistrationReport;
  refused: boolean;
}

export const codeOf = (err: unknown) => (err instanceof ApiError ? err.code : 'registration_error');
const sameFilter = (a: { name: string } | null | undefined, b: { name: string } | null | undefined) =>
  (a?.name ?? null) === (b?.name ?? null);

/** The receiver URL the connection's registrations must point at now (PUBLIC_APP_URL + the derived URL token). */
export function expectedReceiverUrl(deps: Pick<SitePlatformDeps, 'config' | 'secretHashKey'>, connectionId: string): string {
  if (!deps.config.PUBLIC_APP_URL) throw notConfigured('PUBLIC_APP_URL');
  return receiverUrlOf(deps.config.PUBLIC_APP_URL, connectionId, urlTokenOf(deps.secretHashKey, connectionId));
}

/** What `webhook_url_token_hash` must hold for a connection. */
export const expectedUrlTokenHash = (secretHashKey: string, connectionId: string) => urlTokenHash(urlTokenOf(secretHashKey, connectionId));

/** The registrations a site's form routing calls for: the ten other triggers, then site-wide or one per form name. */
export function desiredWebhooks(routing: Pick<FormRoutingRow, 'mode' | 'form_names'> | undefined): DesiredWebhook[] {
  const others = REGISTERED_TRIGGERS.filter((t) => t !== 'form_submission').map((triggerType) => ({ triggerType, filter: null }));
  if (routing?.mode === 'per_form') {
    return [...others, ...routing.form_names.map((name) => ({ triggerType: 'form_submission', filter: { name } }))];
  }
  return [...others, { triggerType: 'form_submission', filter: null }];
}

export interface SiteRegistrationInput {
  accountId: string;
  connection: Pick<ConnectionRow, 'id' | 'auth_kind'>;
  client: SitePlatformClient;
  siteId: string;
  url: string;
  /** A listing the caller already made under the same lock. */
  listed?: { webhooks: PlatformWebhook[]; complete: boolean };
  /** Set after a site token was refused on an earlier site: list and adopt, create nothing. */
  refusedBefore?: boolean;
}

/**
 * One site, with the per-site lock already held by the caller (withSiteWebhookLock): list first; adopt a registration
 * whose trigger, URL and filter match; create what is missing (at most 75 per trigger per site, counting every
 * registrant); then — last, and only for triggers whose registrations all exist now — delete this connection's stale
 * registrations (an old URL, a filter the routing no longer wants, a duplicate). Orphans (./orphans.ts: this receiver's
 * registrations whose connection is gone) are deleted too. A subscription row is written for each created or adopted
 * registration and removed only once the platform confirmed the delete (or no longer lists it).
 */
export async function registerSiteLocked(deps: SitePlatformDeps, input: SiteRegistrationInput): Promise<SiteOutcome> {
  const { accountId, connection, client, siteId, url } = input;
  const report: SiteRegistrationReport = { site_id: siteId, created: 0, adopted: 0, deleted: 0, failed: [] };
  const desired = desiredWebhooks(await findFormRouting(deps.db, accountId, siteId));
  let listed: { webhooks: PlatformWebhook[]; complete: boolean };
  try {
    listed = input.listed ?? (await listSiteWebhooks(client, siteId));
  } catch (err) {
    const code = codeOf(err);
    report.failed = [...new Set(desired.map((d) => d.triggerType))].map((trigger_type) => ({ trigger_type, code }));
    return { report, refused: false };
  }

  const rows = await listSubscriptions(deps.db, accountId, { connectionId: connection.id, siteId });
  const ownRowIds = new Set(rows.map((r) => r.webhook_id));
  const ours = (h: PlatformWebhook) => ownRowIds.has(h.id) || isReceiverUrlOf(h.url, connection.id);
  const kept = new Set<string>();
  const perTrigger = new Map<string, number>();
  for (const h of listed.webhooks) perTrigger.set(h.triggerType, (perTrigger.get(h.triggerType) ?? 0) + 1);
  const failedTriggers = new Set<string>();
  let refused = input.refusedBefore === true;
  const fail = (trigger_type: string, code: string) => {
    report.failed.push({ trigger_type, code });
    failedTriggers.add(trigger_type);
  };
  const record = (h: PlatformWebhook) =>
    upsertSubscription(deps.db, accountId, {
      connection_id: connection.id,
      site_id: siteId,
      webhook_id: h.id,
      trigger_type: h.triggerType,
      endpoint_url: h.url,
      filter: h.filter,
    });

  for (const want of desired) {
    const match = listed.webhooks.find(
      (h) => !kept.has(h.id) && h.triggerType === want.triggerType && h.url === url && sameFilter(h.filter, want.filter),
    );
    if (match) {
      kept.add(match.id);
      await record(match);
      report.adopted++;
      continue;
    }
    if (refused) {
      fail(want.triggerType, 'site_token_refused');
      continue;
    }
    if ((perTrigger.get(want.triggerType) ?? 0) >= MAX_REGISTRATIONS_PER_TRIGGER) {
      fail(want.triggerType, 'webhook_limit_reached');
      continue;
    }
    try {
      const created = await createSiteWebhook(client, siteId, { triggerType: want.triggerType, url, filter: want.filter });
      kept.add(created.id);
      perTrigger.set(want.triggerType, (perTrigger.get(want.triggerType) ?? 0) + 1);
      await record({ ...created, url: created.url || url });
      report.created++;
    } catch (err) {
      // The platform registers webhooks for OAuth applications only: a site token is refused with a 403.
      if (connection.auth_kind === 'site_token' && err instanceof ApiError && err.status === 403) {
        refused = true;
        fail(want.triggerType, 'site_token_refused');
      } else {
        fail(want.triggerType, codeOf(err));
      }
    }
  }

  // Delete last: only stale registrations of this connection, and only where every wanted registration of the trigger exists.
  if (!refused) {
    for (const h of listed.webhooks) {
      if (kept.has(h.id) || !ours(h) || failedTriggers.has(h.triggerType)) continue;
      try {
        await deleteWebhook(client, h.id);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) {
          fail(h.triggerType, codeOf(err));
          continue;
        }
      }
      await deleteSubscription(deps.db, accountId, h.id);
      report.deleted++;
    }
  }
  // Registrations of this receiver whose connection is gone only draw 404s and retries: removed whatever this run's outcome.
  report.deleted += (await removeOrphans(deps, client, siteId, await findOrphans(deps, listed.webhooks))).removed;
  // A row whose registration the platform no longer lists (deleted in its dashboard) is gone: the listing confirms it.
  if (listed.complete) {
    const listedIds = new Set(listed.webhooks.map((h) => h.id));
    for (const row of rows) if (!listedIds.has(row.webhook_id)) await deleteSubscription(deps.db, accountId, row.webhook_id);
  }
  return { report, refused };
}

/** registerSiteLocked under the site's lock. */
export async function registerSite(deps: SitePlatformDeps, input: SiteRegistrationInput): Promise<SiteOutcome> {
  return withSiteWebhookLock(deps.db, input.siteId, () => registerSiteLocked(deps, input));
}

/** The connection's client (its shared token bucket) with the token opened in memory. */
export function connectionClient(deps: SitePlatformDeps, connection: ConnectionRow): SitePlatformClient {
  if (!connection.access_token_enc) throw connectionGone();
  return clientFor(deps.config, connection.id, openSealed(deps.config, connection.access_token_enc).plaintext);
}

const connectionGone = () =>
  new ApiError(409, 'site_platform_connection_disconnected', 'the connection is disconnected; reconnect before registering webhooks');

export const MANUAL_STEPS_KIND = 'site_platform_webhooks_manual';

/** The inbox item a refused site token leaves: the manual steps, never the URL token (the connect answer shows the URL once). */
async function raiseManualSteps(deps: SitePlatformDeps, accountId: string, connectionId: string, siteIds: string[]): Promise<void> {
  await raiseInboxItem(deps.db, accountId, {
    kind: MANUAL_STEPS_KIND,
    dedupKey: `${MANUAL_STEPS_KIND}:${connectionId}`,
    title: 'Add the site platform webhooks by hand: the platform does not register webhooks for a site token',
    body: {
      connection_id: connectionId,
      site_ids: siteIds,
      triggers: [...REGISTERED_TRIGGERS],
      steps: [
        "In the site platform's dashboard, open each listed site's settings, Apps & Integrations, Webhooks.",
        `Add one webhook for each of the ${REGISTERED_TRIGGERS.length} triggers listed here, every one pointing at the receiver URL that the site-token connect answer showed once (webhooks.receiver_url).`,
        'Leave form_submission without a form filter, so every form of the site is routed.',
        'Lost the URL, or prefer not to do this by hand: connect the account with OAuth instead; the service then registers the webhooks itself (POST /api/builder/site-platform/connections/{id}/reregister-webhooks re-registers them later).',
        'Deliveries are accepted as soon as the webhooks exist; the next connect of this site token lists and adopts them as subscriptions.',
      ],
    },
  });
}

/**
 * Registers the receiver webhooks of a connection on every site it shares (doc2 Registration rules), each site
 * under its advisory lock. A site token the platform refuses is reported as `skipped: site_token_refused` with the
 * receiver URL, and an inbox item (deduplicated per connection) gives the manual steps. Keeps
 * `webhook_url_token_hash` in step with the derived token. Per-site failures are reported, not thrown; it throws only
 * for an unknown (404) or disconnected (409) connection or a missing configuration (503).
 */
export async function registerConnectionWebhooks(
  deps: SitePlatformDeps,
  accountId: string,
  connectionId: string,
): Promise<RegistrationReport> {
  const connection = await findConnection(deps.db, accountId, connectionId);
  if (!connection)
    throw new ApiError(404, 'site_platform_connection_not_found', 'no site platform connection with this id in your account');
  if (connection.disconnected_at || !connection.access_token_enc) throw connectionGone();
  const url = expectedReceiverUrl(deps, connection.id);
  const hash = expectedUrlTokenHash(deps.secretHashKey, connection.id);
  if (connection.webhook_url_token_hash !== hash)
    await updateConnection(deps.db, accountId, connection.id, { webhook_url_token_hash: hash });
  const client = connectionClient(deps, connection);

  const sites = await listSitesOfConnection(deps.db, accountId, connection.id);
  const report: RegistrationReport = { sites: [] };
  let refused = false;
  for (const site of sites) {
    let outcome: SiteOutcome;
    try {
      outcome = await registerSite(deps, { accountId, connection, client, siteId: site.site_id, url, refusedBefore: refused });
    } catch (err) {
      outcome = {
        report: { site_id: site.site_id, created: 0, adopted: 0, deleted: 0, failed: [{ trigger_type: '*', code: codeOf(err) }] },
        refused: false,
      };
    }
    refused ||= outcome.refused;
    report.sites.push(outcome.report);
    deps.logger.info(
      {
        accountId,
        connectionId: connection.id,
        siteId: site.site_id,
        created: outcome.report.created,
        adopted: outcome.report.adopted,
        deleted: outcome.report.deleted,
        failed: outcome.report.failed.map((f) => `${f.trigger_type}:${f.code}`),
      },
      'site platform webhook registration',
    );
  }
  if (refused) {
    report.skipped = 'site_token_refused';
    report.receiver_url = url;
    await raiseManualSteps(
      deps,
      accountId,
      connection.id,
      sites.map((s) => s.site_id),
    );
  }
  return report;
}
