import { ApiError } from '../../http/errors';
import type { SitePlatformDeps } from '../connections/deps';
import { withSiteWebhookLock } from '../webhooks/siteLock';
import { deleteSubscription } from '../webhooks/subscriptionsStore';

/**
 * webhook_delete under the per-site advisory lock that webhook registration takes (doc2 Registration rules), so a
 * delete never interleaves with a registration run on the same site. The subscription row goes only once the
 * platform confirmed: a 2xx, or a 404 (the registration is not there); the platform's 404 is still answered.
 */
export async function runWebhookDelete<T>(
  deps: SitePlatformDeps,
  accountId: string,
  siteId: string,
  webhookId: string,
  call: () => Promise<T>,
): Promise<T> {
  return withSiteWebhookLock(deps.db, siteId, async () => {
    try {
      const result = await call();
      await deleteSubscription(deps.db, accountId, webhookId);
      return result;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && err.extra.upstreamStatus === 404) {
        await deleteSubscription(deps.db, accountId, webhookId);
      }
      throw err;
    }
  });
}
