import { setTimeout as sleep } from 'node:timers/promises';
import {
  buildDeliveries,
  DRAIN_STALL_MS,
  finishedDeliveries,
  PATH,
  seedShop,
  sender,
  type Delivery,
  type Shop,
} from './commerceDeliveries';
import { processedLatency, type DeliveryLatency } from './clusterStore';
import type { BenchEnv } from './env';
import type { Samples } from './load';

/** Commerce webhook rounds of the cluster scenario: deliveries to fresh shops, until the shops' workflows processed them. */

export interface WebhookBatch {
  shops: Shop[];
  /** Round-robin over the shops, so every shop's workflow has work from the start. */
  deliveries: Delivery[];
}

/** `shops` fresh shops (one shop workflow each) with `perShop` distinct signed orders/create deliveries each. */
export async function webhookBatch(env: BenchEnv, shops: number, perShop: number): Promise<WebhookBatch> {
  const seeded: Shop[] = [];
  for (let i = 0; i < shops; i++) seeded.push(await seedShop(env, `Bench cluster ${i}`));
  const perShopDeliveries = await Promise.all(seeded.map((shop) => buildDeliveries(shop, perShop)));
  const deliveries = Array.from({ length: perShop }, (_, i) => perShopDeliveries.map((list) => list[i])).flat();
  return { shops: seeded, deliveries };
}

export interface WebhookRound {
  intake: Samples;
  accepted: number;
  processed: number;
  failed: number;
  /** First send → the last accepted delivery processed (or the drain gave up). */
  endToEndMs: number;
  stalled: boolean;
  latency: DeliveryLatency;
}

/**
 * Posts the batch to our receiver (POST /api/webhooks/commerce, 16 in flight) and waits until the shop workflows have
 * processed every accepted delivery, or nothing was finished for DRAIN_STALL_MS.
 */
export async function webhookRound(env: BenchEnv, baseUrl: string, batch: WebhookBatch): Promise<WebhookRound> {
  const send = sender(baseUrl, PATH);
  const started = performance.now();
  let intake: Samples;
  try {
    intake = await send.round(batch.deliveries, { maxOperations: batch.deliveries.length });
  } finally {
    await send.close();
  }
  const finishedNow = async () => {
    const perShop = await Promise.all(batch.shops.map((shop) => finishedDeliveries(env, shop)));
    return perShop.reduce((t, s) => ({ processed: t.processed + s.processed, failed: t.failed + s.failed }), { processed: 0, failed: 0 });
  };
  let done = await finishedNow();
  let movedAt = performance.now();
  let stalled = false;
  while (done.processed + done.failed < send.accepted && !stalled) {
    await sleep(100);
    const now = await finishedNow();
    if (now.processed + now.failed !== done.processed + done.failed) movedAt = performance.now();
    done = now;
    stalled = performance.now() - movedAt > DRAIN_STALL_MS;
  }
  const endToEndMs = (stalled ? movedAt : performance.now()) - started;
  return {
    intake,
    accepted: send.accepted,
    ...done,
    endToEndMs,
    stalled,
    latency: await processedLatency(
      env.db,
      batch.shops.map((shop) => shop.connectionId),
    ),
  };
}
