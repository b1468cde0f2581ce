import type { Knex } from '../../db/knex';
import { purgeDeliveriesOlderThan } from './store';

/**
 * Delivery records (the receiver's durable dedup) are kept 7 days: the platform retries a delivery for 48 hours at
 * most, so an older record can no longer stop a duplicate, and the margin leaves operators days to look at failures.
 */
export const DELIVERY_RETENTION_HOURS = 7 * 24;

/** Deletes one batch of expired delivery records (oldest first); fewer than `limit` deleted means none is left. */
export async function purgeExpiredDeliveries(db: Knex, limit: number): Promise<number> {
  return purgeDeliveriesOlderThan(db, DELIVERY_RETENTION_HOURS, limit);
}
