import { ApiError } from '../../http/errors';
import { raiseInboxItem } from '../../inbox/service';
import type { SitePlatformDeps } from '../connections/deps';
import { expectedReceiverUrl, registerConnectionWebhooks } from '../webhooks/registration';
import { listSubscriptions } from '../webhooks/subscriptionsStore';
import { receiverUrlProblem } from './receiverUrl';
import type { DriftRef, UrlDriftPage, UrlReconcileResult } from '../../../workflows/sitePlatformWebhookUrlReconcile.contract';
import * as store from './store';
import type { PageRequest } from './store';

export const URL_RECONCILE_FAILED_KIND = 'site_platform_webhook_url_reconcile_failed';
export const urlReconcileFailedDedupKey = (connectionId: string) => `site-platform:webhook-url-reconcile-failed:${connectionId}`;

/**
 * One page of live OAuth connections that have a subscription row whose endpoint URL is not the receiver URL the
 * connection must use now (PUBLIC_APP_URL changed, or SECRET_HASH_KEY — and with it the URL token — rotated).
 * Database only: the platform is called for the drifted connections alone.
 */
export async function findWebhookUrlDrift(deps: SitePlatformDeps, page: PageRequest): Promise<UrlDriftPage> {
  const problem = receiverUrlProblem(deps);
  if (problem) return { configured: false, code: problem };
  const rows = await store.subscriptionUrlsPage(deps.db, page);
  const connections: Array<DriftRef & { staleUrls: number }> = [];
  for (const row of rows) {
    const expected = expectedReceiverUrl(deps, row.connectionId);
    const stale = row.endpointUrls.filter((u) => u !== expected).length;
    if (stale > 0) connections.push({ accountId: row.accountId, connectionId: row.connectionId, staleUrls: stale });
  }
  return { configured: true, connections, next: rows.length === page.limit ? rows[rows.length - 1].connectionId : null };
}

/**
 * Re-registers one connection's webhooks at the current URL (registerConnectionWebhooks: per site under its lock,
 * creates first and deletes the stale ones last). Any failure — a trigger that could not be created, an old
 * registration that could not be deleted, or a coded failure of the whole connection — raises an inbox item, one
 * open item per connection. The database throws (the activity retries).
 */
export async function reconcileWebhookUrl(deps: SitePlatformDeps, ref: DriftRef): Promise<UrlReconcileResult> {
  const result: UrlReconcileResult = { status: 'reregistered', created: 0, deleted: 0, failed: [], stillStale: 0 };
  try {
    const report = await registerConnectionWebhooks(deps, ref.accountId, ref.connectionId);
    for (const site of report.sites) {
      result.created += site.created;
      result.deleted += site.deleted;
      result.failed.push(...site.failed.map((f) => ({ site_id: site.site_id, ...f })));
    }
    const url = expectedReceiverUrl(deps, ref.connectionId);
    result.stillStale = (await listSubscriptions(deps.db, ref.accountId, { connectionId: ref.connectionId })).filter(
      (s) => s.endpoint_url !== url,
    ).length;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 404 || err.code === 'site_platform_connection_disconnected') return { ...result, status: 'skipped', code: err.code };
    result.code = err.code;
  }
  if (!result.code && result.failed.length === 0 && result.stillStale === 0) return result;
  const { inboxItemCreated } = await raiseUrlReconcileFailure(deps, ref, result);
  return { ...result, status: 'failed', inboxItemCreated };
}

/** The inbox item of a connection whose webhooks could not be moved to the current URL. */
export async function raiseUrlReconcileFailure(
  deps: Pick<SitePlatformDeps, 'db'>,
  ref: DriftRef,
  what: { code?: string; failed?: UrlReconcileResult['failed']; stillStale?: number },
): Promise<{ inboxItemCreated: boolean }> {
  const { created } = await raiseInboxItem(deps.db, ref.accountId, {
    kind: URL_RECONCILE_FAILED_KIND,
    dedupKey: urlReconcileFailedDedupKey(ref.connectionId),
    title: 'Site platform webhooks could not be moved to the current receiver URL',
    body: {
      connection_id: ref.connectionId,
      code: what.code ?? null,
      failed: (what.failed ?? []).slice(0, 50),
      still_at_old_url: what.stillStale ?? 0,
      hint: 'Until they move, deliveries go to the old URL. The hourly URL-reconcile sweep tries again; POST /api/builder/site-platform/connections/{id}/reregister-webhooks retries now.',
    },
  });
  return { inboxItemCreated: created };
}
