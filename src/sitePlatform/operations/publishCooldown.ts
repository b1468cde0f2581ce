import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';

export const PUBLISH_COOLDOWN_SECONDS = 60;

/**
 * Claims the site's publish minute on its row (last_publish_requested_at), atomically, so two concurrent publishes
 * cannot both pass. Answers a release that puts the previous stamp back, for a publish the platform refused: the
 * limit counts successful publishes.
 */
export async function claimPublish(db: Knex, accountId: string, siteId: string): Promise<() => Promise<void>> {
  // Stamps travel as text: a JS Date drops the microseconds the release compares on.
  const before = await db('site_platform_sites').where({ account_id: accountId, site_id: siteId })
    .first(db.raw('last_publish_requested_at::text as stamp'));
  const claimed = await db.raw(
    `update site_platform_sites set last_publish_requested_at = now(), updated_at = now()
     where account_id = ? and site_id = ?
       and (last_publish_requested_at is null or last_publish_requested_at <= now() - make_interval(secs => ?))
     returning last_publish_requested_at::text as stamp`,
    [accountId, siteId, PUBLISH_COOLDOWN_SECONDS],
  );
  if (claimed.rows.length === 0) {
    const row = await db.raw(
      `select greatest(1, ceil(extract(epoch from (last_publish_requested_at + make_interval(secs => ?) - now()))))::int as wait
       from site_platform_sites where account_id = ? and site_id = ?`,
      [PUBLISH_COOLDOWN_SECONDS, accountId, siteId],
    );
    const wait = Number(row.rows[0]?.wait ?? PUBLISH_COOLDOWN_SECONDS);
    throw new ApiError(429, 'publish_cooldown', `the site was published less than ${PUBLISH_COOLDOWN_SECONDS} seconds ago`, { retryAfterSeconds: wait });
  }
  const stamp: string = claimed.rows[0].stamp;
  const previous: string | null = before?.stamp ?? null;
  return async () => {
    await db.raw(
      `update site_platform_sites set last_publish_requested_at = ?::timestamptz
       where account_id = ? and site_id = ? and last_publish_requested_at::text = ?`,
      [previous, accountId, siteId, stamp],
    );
  };
}
