import { raiseInboxItem } from '../../inbox/service';
import { ApiError } from '../../http/errors';
import type { CommerceDeps } from '../connections/deps';
import { findConnection } from '../connections/store';
import { registerStandardWebhooks, webhookEndpointUrl } from '../connections/webhooks';
import * as store from './store';
import type { PageRequest } from './store';
import type { ShopRef } from '../../../workflows/commerceShopRef.contract';
import type { UrlDriftPage, UrlReconcileResult } from '../../../workflows/commerceWebhookUrlReconcile.contract';

export const URL_RECONCILE_FAILED_KIND = 'commerce_webhook_url_reconcile_failed';
export const urlReconcileFailedDedupKey = (connectionId: string) => `commerce:webhook-url-reconcile-failed:${connectionId}`;

/** One page of connected shops with a webhook subscription recorded at another URL than the current one. */
export async function findWebhookUrlDrift(deps: CommerceDeps, page: PageRequest): Promise<UrlDriftPage> {
  let endpointUrl: string;
  try {
    endpointUrl = webhookEndpointUrl(deps.config);
  } catch (err) {
    if (err instanceof ApiError) return { configured: false, code: err.code };
    throw err;
  }
  const rows = await store.webhookUrlDriftPage(deps.db, endpointUrl, page);
  return {
    configured: true,
    endpointUrl,
    connections: rows.map((r) => ({
      accountId: r.account_id,
      connectionId: r.id,
      shopDomain: r.shop_domain,
      staleSubscriptions: r.stale_subscriptions,
    })),
    next: rows.length === page.limit ? rows[rows.length - 1].id : null,
  };
}

/**
 * Re-registers every standard topic of one shop at the current URL (`registerStandardWebhooks`: stale platform
 * webhooks deleted and created again, subscriptions re-recorded). Any topic that fails — or a coded failure of the
 * whole shop, such as an unreadable token — is raised as an inbox item, one open item per connection. Uncoded
 * errors (the database) are thrown for the activity to retry.
 */
export async function reconcileWebhookUrl(deps: CommerceDeps, ref: ShopRef): Promise<UrlReconcileResult> {
  const connection = await findConnection(deps.db, ref.accountId, ref.connectionId);
  if (!connection || connection.disconnected_at)
    return { status: 'skipped', registered: 0, failed: [], code: 'commerce_connection_disconnected' };
  try {
    const registration = await registerStandardWebhooks(deps, connection);
    if (registration.failed.length === 0) return { status: 'reregistered', registered: registration.registered.length, failed: [] };
    await raiseUrlReconcileFailure(deps, ref, { failed: registration.failed });
    return { status: 'failed', registered: registration.registered.length, failed: registration.failed };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    await raiseUrlReconcileFailure(deps, ref, { code: err.code });
    return { status: 'failed', registered: 0, failed: [], code: err.code };
  }
}

/** The inbox item of a shop whose webhooks could not be moved to the current URL. */
export async function raiseUrlReconcileFailure(
  deps: Pick<CommerceDeps, 'db' | 'config'>,
  ref: ShopRef,
  what: { code?: string; failed?: Array<{ topic: string; code: string }> },
): Promise<{ inboxItemCreated: boolean }> {
  const { created } = await raiseInboxItem(deps.db, ref.accountId, {
    kind: URL_RECONCILE_FAILED_KIND,
    urgency: 'normal',
    dedupKey: urlReconcileFailedDedupKey(ref.connectionId),
    title: `Webhooks of ${ref.shopDomain} could not be moved to the current URL`,
    body: {
      connection_id: ref.connectionId,
      shop_domain: ref.shopDomain,
      code: what.code ?? null,
      failed_topics: what.failed ?? [],
      hint: 'Until they move, deliveries go to the old URL. The daily URL-reconcile sweep tries again; POST /api/commerce/connections/{id}/webhooks retries now.',
    },
  });
  return { inboxItemCreated: created };
}
