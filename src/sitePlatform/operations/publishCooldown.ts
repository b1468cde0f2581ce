import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';

export const PUBLISH_COOLDOWN_SECONDS = 60;

/**
 * Claims the platform site's publish minute, atomically and across accounts (an agency and its client holding one
 * site share the platform's limit), so two concurrent publishes cannot both pass. The account's site row records
 * last_publish_requested_at. Answers a release that puts the previous stamps back, for a publish the platform
 * refused: the limit counts successful publishes.
 */
export async function claimPublish(db: Knex, accountId: string, siteId: string): Promise<() => Promise<void>> {
  // Stamps travel as text: a JS Date drops the microseconds the release compares on.
  const before = await db('site_platform_publish_claims').where({ site_id: siteId }).first(db.raw('claimed_at::text as stamp'));
  const claimed = await db.raw(
    `insert into site_platform_publish_claims (site_id, claimed_at) values (?, now())
     on conflict (site_id) do update set claimed_at = excluded.claimed_at
       where site_platform_publish_claims.claimed_at <= now() - make_interval(secs => ?)
     returning claimed_at::text as stamp`,
    [siteId, PUBLISH_COOLDOWN_SECONDS],
  );
  if (claimed.rows.length === 0) {
    const row = await db.raw(
      `select greatest(1, ceil(extract(epoch from (claimed_at + make_interval(secs => ?) - now()))))::int as wait
       from site_platform_publish_claims where site_id = ?`,
      [PUBLISH_COOLDOWN_SECONDS, siteId],
    );
    const wait = Number(row.rows[0]?.wait ?? PUBLISH_COOLDOWN_SECONDS);
    throw new ApiError(429, 'publish_cooldown', `the site was published less than ${PUBLISH_COOLDOWN_SECONDS} seconds ago`, { retryAfterSeconds: wait });
  }
  const stamp: string = claimed.rows[0].stamp;
  const previous: string | null = before?.stamp ?? null;
  const ownRow = await db('site_platform_sites').where({ account_id: accountId, site_id: siteId }).first(db.raw('last_publish_requested_at::text as stamp'));
  await db.raw(`update site_platform_sites set last_publish_requested_at = ?::timestamptz, updated_at = now() where account_id = ? and site_id = ?`, [stamp, accountId, siteId]);
  return async () => {
    if (previous === null) {
      await db.raw(`delete from site_platform_publish_claims where site_id = ? and claimed_at::text = ?`, [siteId, stamp]);
    } else {
      await db.raw(`update site_platform_publish_claims set claimed_at = ?::timestamptz where site_id = ? and claimed_at::text = ?`, [previous, siteId, stamp]);
    }
    await db.raw(
      `update site_platform_sites set last_publish_requested_at = ?::timestamptz
       where account_id = ? and site_id = ? and last_publish_requested_at::text = ?`,
      [ownRow?.stamp ?? null, accountId, siteId, stamp],
    );
  };
}
