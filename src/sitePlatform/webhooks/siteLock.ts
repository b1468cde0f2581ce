import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { lockSiteWebhooks } from './subscriptionsStore';

/** How long a registration or `webhook_delete` waits for another one on the same site before giving up. */
export const SITE_WEBHOOK_LOCK_WAIT_MS = 60_000;

const lockTimeout = (err: unknown) => (err as { code?: string })?.code === '55P03';

/**
 * Runs `fn` holding the per-site advisory lock that serialises webhook registration and `webhook_delete` on one
 * platform site (doc2 Registration rules). The lock is transaction-scoped, so a crashed holder frees it with its
 * connection; `fn` runs outside that transaction (it writes through `db`) and may call the platform. Not acquired
 * within SITE_WEBHOOK_LOCK_WAIT_MS → 409 write_locked (nothing changed, safe to retry).
 */
export async function withSiteWebhookLock<T>(
  db: Knex,
  siteId: string,
  fn: () => Promise<T>,
  waitMs = SITE_WEBHOOK_LOCK_WAIT_MS,
): Promise<T> {
  let result: { value: T } | undefined;
  try {
    await db.transaction(async (trx) => {
      await lockSiteWebhooks(trx, siteId, waitMs);
      result = { value: await fn() };
    });
  } catch (err) {
    if (!result && lockTimeout(err)) {
      throw new ApiError(409, 'write_locked', 'another webhook registration holds this site; nothing changed, safe to retry');
    }
    throw err;
  }
  return result!.value;
}
