import type { Knex } from '../../db/knex';
import { deleteExpiredEvents } from './store';

/**
 * How long the inbound event log keeps a row (docs/site-platform.md, "Site platform sweeps"). A verified event is kept 30 days: the
 * platform's retries end 30 minutes after the first attempt, so the replay guard needs far less, and the margin lets
 * operators read a month of deliveries (the webhook-health sweep reads it for site-token connections too). A verified
 * event the relay has not dispatched yet is work, never deleted. An unverified row carries no trusted content and only
 * feeds the 50-per-connection-per-hour bound: 3 days, long enough to look into a signature failure after a weekend.
 */
export const VERIFIED_RETENTION_HOURS = 30 * 24;
export const UNVERIFIED_RETENTION_HOURS = 3 * 24;

export type RetentionClass = 'unverified' | 'verified';

/** Deletes one batch of expired rows of a class (oldest first); fewer than `limit` deleted means none of it is left. */
export async function purgeExpiredEvents(db: Knex, input: { kind: RetentionClass; limit: number }): Promise<number> {
  const hours = input.kind === 'verified' ? VERIFIED_RETENTION_HOURS : UNVERIFIED_RETENTION_HOURS;
  return deleteExpiredEvents(db, input.kind, hours, input.limit);
}
