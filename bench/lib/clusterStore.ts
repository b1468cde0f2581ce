import type { Knex } from '../../src/db/knex';

export interface DeliveryLatency {
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/** Received → processed by the shop workflow, over the processed deliveries of these connections. */
export async function processedLatency(db: Knex, connectionIds: string[]): Promise<DeliveryLatency> {
  const { rows } = await db.raw(
    `select percentile_cont(array[0.5, 0.95, 0.99]) within group (order by extract(epoch from processed_at - received_at) * 1000) as ms
       from commerce_webhook_deliveries
      where connection_id = any(?) and outcome = 'processed'`,
    [connectionIds],
  );
  const [p50Ms, p95Ms, p99Ms] = (rows[0]?.ms ?? [NaN, NaN, NaN]).map(Number);
  return { p50Ms, p95Ms, p99Ms };
}
