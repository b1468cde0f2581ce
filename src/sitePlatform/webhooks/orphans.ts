import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { deleteWebhook, type PlatformWebhook, type SitePlatformClient } from '../../clients/sitePlatform';
import type { SitePlatformDeps } from '../connections/deps';
import { deadSubscriptions, liveConnectionIds, type DeadSubscription } from './orphansStore';
import { deleteSubscription } from './subscriptionsStore';
import { isOwnReceiverUrl, receiverConnectionOf } from './urlToken';

/** A registration on a site that delivers to this service for a connection that is gone. */
export interface Orphan {
  webhookId: string;
  /** Its subscription rows (of a disconnected connection), deleted once the platform confirmed the delete. */
  rows: DeadSubscription[];
}

/**
 * The orphans in a site's listing: registrations at this deployment's receiver (`${PUBLIC_APP_URL}/api/webhooks/
 * site-platform/…`) whose connection no longer exists or is disconnected, and registrations that a disconnected
 * connection's subscription rows still record (a disconnect that could not remove them, at whatever URL). Each such
 * registration only draws a 404 from the receiver and three platform retries per event. A registration naming a live
 * connection, of any account, and any other receiver's registration are never orphans.
 */
export async function findOrphans(deps: Pick<SitePlatformDeps, 'db' | 'config'>, webhooks: PlatformWebhook[]): Promise<Orphan[]> {
  const named = new Map<string, string>();
  for (const h of webhooks) {
    const connectionId = receiverConnectionOf(h.url);
    if (connectionId !== null) named.set(h.id, connectionId);
  }
  const live = await liveConnectionIds(deps.db, [...new Set(named.values())].filter(isUuid));
  const recorded = new Map<string, DeadSubscription[]>();
  for (const row of await deadSubscriptions(
    deps.db,
    webhooks.map((h) => h.id),
  )) {
    recorded.set(row.webhook_id, [...(recorded.get(row.webhook_id) ?? []), row]);
  }
  const publicAppUrl = deps.config.PUBLIC_APP_URL;
  const orphans: Orphan[] = [];
  for (const h of webhooks) {
    const connectionId = named.get(h.id);
    if (connectionId !== undefined && live.has(connectionId)) continue;
    const ownReceiver = connectionId !== undefined && !!publicAppUrl && isOwnReceiverUrl(h.url, publicAppUrl);
    if (ownReceiver || recorded.has(h.id)) orphans.push({ webhookId: h.id, rows: recorded.get(h.id) ?? [] });
  }
  return orphans;
}

/**
 * Deletes orphans on the platform with the caller's client (the caller holds the site's lock). A registration the
 * platform confirmed deleted (2xx or 404) loses its subscription rows; one it did not is logged and left for the next
 * registration run on the site, its rows kept as the record. Answers how many went.
 */
export async function removeOrphans(
  deps: SitePlatformDeps,
  client: SitePlatformClient,
  siteId: string,
  orphans: Orphan[],
): Promise<{ removed: number; failed: number }> {
  let removed = 0;
  let failed = 0;
  for (const orphan of orphans) {
    try {
      await deleteWebhook(client, orphan.webhookId);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) {
        failed++;
        deps.logger.warn(
          { siteId, webhookId: orphan.webhookId, code: err instanceof ApiError ? err.code : (err as Error).name },
          'site platform orphan webhook registration could not be deleted; the next registration run on the site retries',
        );
        continue;
      }
    }
    for (const row of orphan.rows) await deleteSubscription(deps.db, row.account_id, orphan.webhookId);
    removed++;
  }
  return { removed, failed };
}
