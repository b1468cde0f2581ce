import { ApiError } from '../../http/errors';
import { raiseInboxItem } from '../../inbox/service';
import { listSiteWebhooks, type PlatformWebhook } from '../../clients/sitePlatform';
import { nowOf, type SitePlatformDeps } from '../connections/deps';
import { listSitesOfConnection } from '../connections/store';
import { connectionClient, desiredWebhooks, expectedReceiverUrl, registerConnectionWebhooks } from '../webhooks/registration';
import { findOrphans } from '../webhooks/orphans';
import { findFormRouting, listSubscriptions } from '../webhooks/subscriptionsStore';
import { isReceiverUrlOf } from '../webhooks/urlToken';
import { receiverUrlProblem } from './receiverUrl';
import type { ConnectionRef } from '../../../workflows/sitePlatformSweeps.contract';
import { noWebhookHealthFindings, type WebhookHealthResult } from '../../../workflows/sitePlatformWebhookHealth.contract';
import * as store from './store';
import type { PageRequest } from './store';

/**
 * Silence thresholds (docs/site-platform.md, "Site platform sweeps"). An OAuth connection's registrations are checked on the platform
 * every run, so silence there mostly means a quiet site — or deliveries that never reach the receiver: after a week
 * installed with no verified delivery for a week, one inbox item says so. A site-token connection registers by hand:
 * three days after install with no verified delivery in the event log, one inbox item repeats the manual steps.
 */
export const OAUTH_SILENCE_HOURS = 7 * 24;
export const SITE_TOKEN_GRACE_HOURS = 72;

export const WEBHOOKS_SILENT_KIND = 'site_platform_webhooks_silent';
export const webhooksSilentDedupKey = (connectionId: string) => `site-platform:webhooks-silent:${connectionId}`;
export const WEBHOOKS_NOT_RECEIVED_KIND = 'site_platform_webhooks_not_received';
export const webhooksNotReceivedDedupKey = (connectionId: string) => `site-platform:webhooks-not-received:${connectionId}`;
export const WEBHOOKS_REPAIR_FAILED_KIND = 'site_platform_webhooks_repair_failed';
export const webhooksRepairFailedDedupKey = (connectionId: string) => `site-platform:webhooks-repair-failed:${connectionId}`;

export async function webhookHealthPage(
  deps: SitePlatformDeps,
  page: PageRequest,
): Promise<{ connections: ConnectionRef[]; next: string | null }> {
  const connections = await store.liveConnectionsPage(deps.db, page);
  return { connections, next: connections.length === page.limit ? connections[connections.length - 1].connectionId : null };
}

interface SiteComparison {
  missing: number;
  foreign: number;
  unrecorded: number;
  staleRows: number;
  orphans: number;
}

/** The platform's registrations on one site against what the connection wants there and what its rows record. */
async function compareSite(
  deps: SitePlatformDeps,
  ref: ConnectionRef,
  siteId: string,
  url: string,
  listed: { webhooks: PlatformWebhook[]; complete: boolean },
): Promise<SiteComparison> {
  const rows = await listSubscriptions(deps.db, ref.accountId, { connectionId: ref.connectionId, siteId });
  const rowIds = new Set(rows.map((r) => r.webhook_id));
  const ours = listed.webhooks.filter((h) => rowIds.has(h.id) || isReceiverUrlOf(h.url, ref.connectionId));
  const atUrl = ours.filter((h) => h.url === url);
  const used = new Set<string>();
  let missing = 0;
  for (const want of desiredWebhooks(await findFormRouting(deps.db, ref.accountId, siteId))) {
    const match = atUrl.find(
      (h) => !used.has(h.id) && h.triggerType === want.triggerType && (h.filter?.name ?? null) === (want.filter?.name ?? null),
    );
    if (match) used.add(match.id);
    else missing++;
  }
  // A partial listing (over 2,000 registrations) cannot prove a registration absent: nothing is counted missing or stale.
  if (!listed.complete) missing = 0;
  const listedIds = new Set(listed.webhooks.map((h) => h.id));
  return {
    missing,
    foreign: ours.filter((h) => h.url !== url).length,
    unrecorded: atUrl.filter((h) => !rowIds.has(h.id)).length,
    staleRows: listed.complete ? rows.filter((r) => !listedIds.has(r.webhook_id)).length : 0,
    orphans: (await findOrphans(deps, listed.webhooks)).length,
  };
}

/**
 * One connection of the webhook-health sweep. OAuth: lists the registrations of every shared site and compares them
 * with the 11 wanted triggers at the expected receiver URL (per-form routing honoured) and with the subscription rows;
 * anything missing, at another URL or unrecorded, and any orphan of this receiver (a registration whose connection is
 * gone), is repaired by re-registering (create first, delete last; the run deletes the orphans), and a
 * repair that leaves failures raises an inbox item. Then the silence check for both kinds. Every inbox item is one
 * open item per connection. Platform failures come back as results; the database throws (the activity retries).
 */
export async function checkConnectionWebhooks(deps: SitePlatformDeps, ref: ConnectionRef): Promise<WebhookHealthResult> {
  const result = noWebhookHealthFindings('healthy');
  const row = await store.findHealthConnection(deps.db, ref.accountId, ref.connectionId);
  if (!row || row.disconnected_at || !row.access_token_enc) return { ...result, status: 'skipped' };

  const problem = receiverUrlProblem(deps);
  if (row.auth_kind === 'oauth' && problem) {
    result.status = 'failed';
    result.code = problem;
  } else if (row.auth_kind === 'oauth') {
    try {
      const url = expectedReceiverUrl(deps, row.id);
      const client = connectionClient(deps, row);
      const sites = await listSitesOfConnection(deps.db, ref.accountId, row.id);
      result.sites = sites.length;
      for (const site of sites) {
        const found = await compareSite(deps, ref, site.site_id, url, await listSiteWebhooks(client, site.site_id));
        result.missing += found.missing;
        result.foreign += found.foreign;
        result.unrecorded += found.unrecorded;
        result.staleRows += found.staleRows;
        result.orphans += found.orphans;
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      result.status = 'failed';
      result.code = err.code;
    }
    if (result.status === 'healthy' && result.missing + result.foreign + result.unrecorded + result.staleRows + result.orphans > 0) {
      await repair(deps, ref, result);
    }
  } else {
    result.status = 'site_token';
  }

  await checkSilence(deps, ref, row.auth_kind, row.installed_at ?? row.created_at, result);
  return result;
}

async function repair(deps: SitePlatformDeps, ref: ConnectionRef, result: WebhookHealthResult): Promise<void> {
  let failed: Array<{ site_id: string; trigger_type: string; code: string }> = [];
  try {
    const report = await registerConnectionWebhooks(deps, ref.accountId, ref.connectionId);
    result.registration = { created: 0, adopted: 0, deleted: 0, failed: 0 };
    for (const site of report.sites) {
      result.registration.created += site.created;
      result.registration.adopted += site.adopted;
      result.registration.deleted += site.deleted;
      result.registration.failed += site.failed.length;
      failed = failed.concat(site.failed.map((f) => ({ site_id: site.site_id, ...f })));
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // Disconnected between the page and now: nothing to repair.
    if (err.code === 'site_platform_connection_disconnected' || err.status === 404) {
      result.status = 'skipped';
      return;
    }
    result.code = err.code;
    failed = [{ site_id: '*', trigger_type: '*', code: err.code }];
  }
  if (failed.length === 0) {
    result.status = 'reregistered';
    return;
  }
  result.status = 'reregister_failed';
  const { created } = await raiseInboxItem(deps.db, ref.accountId, {
    kind: WEBHOOKS_REPAIR_FAILED_KIND,
    dedupKey: webhooksRepairFailedDedupKey(ref.connectionId),
    title: 'Site platform webhooks are missing and could not be registered again',
    body: {
      connection_id: ref.connectionId,
      missing: result.missing,
      at_other_url: result.foreign,
      failed: failed.slice(0, 50),
      hint: 'Deliveries for the failed triggers do not reach the service. The hourly webhook-health sweep tries again; POST /api/builder/site-platform/connections/{id}/reregister-webhooks retries now. webhook_limit_reached: delete unused registrations on the site.',
    },
  });
  if (created) result.inboxItemsCreated++;
}

async function checkSilence(
  deps: SitePlatformDeps,
  ref: ConnectionRef,
  authKind: 'oauth' | 'site_token',
  installedAt: Date,
  result: WebhookHealthResult,
): Promise<void> {
  const hours = authKind === 'oauth' ? OAUTH_SILENCE_HOURS : SITE_TOKEN_GRACE_HOURS;
  const threshold = nowOf(deps) - hours * 3_600_000;
  if (installedAt.getTime() > threshold) return;
  const last = await store.lastDeliveryOf(deps.db, ref.accountId, ref.connectionId);
  if (authKind === 'oauth' ? last && last.getTime() > threshold : last) return;
  result.silent = true;
  const { created } =
    authKind === 'oauth'
      ? await raiseInboxItem(deps.db, ref.accountId, {
          kind: WEBHOOKS_SILENT_KIND,
          dedupKey: webhooksSilentDedupKey(ref.connectionId),
          title: `No site platform delivery received for ${hours / 24} days`,
          body: {
            connection_id: ref.connectionId,
            installed_at: installedAt,
            last_received_at: last,
            threshold_hours: hours,
            hint: 'The registrations are in place (this sweep checks them hourly), so either the sites had no change, form submission or comment in that time, or deliveries do not reach PUBLIC_APP_URL (a proxy or firewall in between). Publish a site or submit a form to check.',
          },
        })
      : await raiseInboxItem(deps.db, ref.accountId, {
          kind: WEBHOOKS_NOT_RECEIVED_KIND,
          dedupKey: webhooksNotReceivedDedupKey(ref.connectionId),
          title: 'No site platform delivery has arrived for a site-token connection: its webhooks are probably not set up',
          body: {
            connection_id: ref.connectionId,
            installed_at: installedAt,
            threshold_hours: hours,
            hint: "A site token cannot register webhooks: add the 11 triggers by hand in the site's settings (Apps & Integrations, Webhooks) at the receiver URL the connect answer showed once, or connect with OAuth and the service registers them itself.",
          },
        });
  if (created) result.inboxItemsCreated++;
}
