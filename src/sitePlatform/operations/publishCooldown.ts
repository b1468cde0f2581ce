import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import * as store from './store';

export const PUBLISH_COOLDOWN_SECONDS = 60;

/**
 * Claims the platform site's publish minute, atomically and across accounts (an agency and its client holding one
 * site share the platform's limit), so two concurrent publishes cannot both pass. The account's site row records
 * last_publish_requested_at. Answers a release that puts the previous stamps back, for a publish the platform
 * refused: the limit counts successful publishes.
 */
export async function claimPublish(db: Knex, accountId: string, siteId: string): Promise<() => Promise<void>> {
  const previous = await store.publishClaimStamp(db, siteId);
  const stamp = await store.claimPublishMinute(db, siteId, PUBLISH_COOLDOWN_SECONDS);
  if (stamp === null) {
    const wait = (await store.secondsUntilPublishFree(db, siteId, PUBLISH_COOLDOWN_SECONDS)) ?? PUBLISH_COOLDOWN_SECONDS;
    throw new ApiError(429, 'publish_cooldown', `the site was published less than ${PUBLISH_COOLDOWN_SECONDS} seconds ago`, {
      retryAfterSeconds: wait,
    });
  }
  const ownPrevious = await store.lastPublishRequestedStamp(db, accountId, siteId);
  await store.setLastPublishRequested(db, accountId, siteId, stamp);
  return async () => {
    await store.restorePublishClaim(db, siteId, stamp, previous);
    await store.restoreLastPublishRequested(db, accountId, siteId, stamp, ownPrevious);
  };
}
