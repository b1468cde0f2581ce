import { ApiError } from '../../http/errors';
import { deleteWebhook, listSiteWebhooks, type SitePlatformClient } from '../../clients/sitePlatform';
import type { SitePlatformDeps } from '../connections/deps';
import { listSitesOfConnection, type ConnectionRow } from '../connections/store';
import { codeOf, connectionClient } from './registration';
import { withSiteWebhookLock } from './siteLock';
import { deleteSubscription, listSubscriptions } from './subscriptionsStore';
import { isReceiverUrlOf } from './urlToken';

/** What a disconnect did to the connection's registrations on the platform. */
export interface Unregistration {
  /** Registrations deleted on the platform (or already gone there). */
  removed: number;
  /** Registrations left on the platform, recorded by their subscription rows until a later run removes them. */
  remaining: number;
}

/** A disconnect waits this long for another registration run on a site, then leaves that site's registrations recorded. */
const DISCONNECT_LOCK_WAIT_MS = 10_000;

async function unregisterSite(
  deps: SitePlatformDeps,
  accountId: string,
  connectionId: string,
  client: SitePlatformClient,
  siteId: string,
  codes: Set<string>,
): Promise<Unregistration> {
  const rows = await listSubscriptions(deps.db, accountId, { connectionId, siteId });
  const listed = await listSiteWebhooks(client, siteId);
  const rowIds = new Set(rows.map((r) => r.webhook_id));
  const out: Unregistration = { removed: 0, remaining: 0 };
  for (const h of listed.webhooks) {
    if (!rowIds.has(h.id) && !isReceiverUrlOf(h.url, connectionId)) continue;
    try {
      await deleteWebhook(client, h.id);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) {
        codes.add(codeOf(err));
        out.remaining++;
        continue;
      }
    }
    await deleteSubscription(deps.db, accountId, h.id);
    out.removed++;
  }
  if (listed.complete) {
    const listedIds = new Set(listed.webhooks.map((h) => h.id));
    for (const row of rows) if (!listedIds.has(row.webhook_id)) await deleteSubscription(deps.db, accountId, row.webhook_id);
  } else {
    out.remaining += rows.filter((r) => !listed.webhooks.some((h) => h.id === r.webhook_id)).length;
  }
  return out;
}

/**
 * On disconnect: deletes the connection's registrations (its subscription rows, or a URL of its receiver) from every
 * site it shares, each site under its lock, with the token the disconnect just took off the row (`connection` is the
 * row as read before). Best effort: a registration the platform does not delete (a token already revoked on the
 * platform, an outage, the rate limit) keeps its subscription row, which records it for the next registration run on
 * that site — any connect, reconnect or webhook-health repair of a connection sharing it removes it as an orphan. Logs
 * counts and codes, never a URL. Throws only for the database.
 */
export async function unregisterConnectionWebhooks(
  deps: SitePlatformDeps,
  accountId: string,
  connection: ConnectionRow,
): Promise<Unregistration> {
  const total: Unregistration = { removed: 0, remaining: 0 };
  const codes = new Set<string>();
  const leaveRecorded = async (siteId: string) =>
    (total.remaining += (await listSubscriptions(deps.db, accountId, { connectionId: connection.id, siteId })).length);
  let client: SitePlatformClient | undefined;
  try {
    client = connectionClient(deps, connection);
  } catch (err) {
    codes.add(codeOf(err));
  }
  for (const site of await listSitesOfConnection(deps.db, accountId, connection.id)) {
    const siteClient = client;
    if (!siteClient) {
      await leaveRecorded(site.site_id);
      continue;
    }
    try {
      const done = await withSiteWebhookLock(
        deps.db,
        site.site_id,
        () => unregisterSite(deps, accountId, connection.id, siteClient, site.site_id, codes),
        DISCONNECT_LOCK_WAIT_MS,
      );
      total.removed += done.removed;
      total.remaining += done.remaining;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      codes.add(err.code);
      await leaveRecorded(site.site_id);
    }
  }
  const log = { accountId, connectionId: connection.id, removed: total.removed, remaining: total.remaining, codes: [...codes] };
  if (total.remaining > 0) {
    deps.logger.warn(
      log,
      'site platform webhook registrations left on the platform after disconnect; the next registration run on their site removes them',
    );
  } else {
    deps.logger.info(log, 'site platform webhook registrations removed on disconnect');
  }
  return total;
}
