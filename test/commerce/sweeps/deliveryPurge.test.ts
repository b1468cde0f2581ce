import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { harness } from '../../helpers/harness';
import { newShop } from '../webhooks/receiverKit';
import { runSweep } from './sweepKit';
import { commerceDeliveryPurgeContract } from '../../../workflows/commerceDeliveryPurge.contract';

async function deliveryAged(shop: { accountId: string; connectionId: string }, hoursAgo: number, processed = true): Promise<string> {
  const { db } = harness();
  const webhookId = randomUUID();
  await db('commerce_webhook_deliveries').insert({
    account_id: shop.accountId,
    connection_id: shop.connectionId,
    webhook_id: webhookId,
    topic: 'orders/create',
    outcome: processed ? 'processed' : null,
    processed_at: processed ? db.fn.now() : null,
    dispatched_at: db.fn.now(), // handed to Temporal (the relay leaves it alone), processed or still waiting there
    received_at: db.raw('now() - make_interval(hours => ?)', [hoursAgo]),
  });
  return webhookId;
}

const remaining = async (connectionId: string) =>
  (await harness().db('commerce_webhook_deliveries').where({ connection_id: connectionId }).select('webhook_id'))
    .map((r) => r.webhook_id)
    .sort();

describe('commerce-delivery-purge sweep', () => {
  it('deletes delivery records older than 7 days and keeps the younger ones', async () => {
    const shop = await newShop();
    const old = [await deliveryAged(shop, 7 * 24 + 1), await deliveryAged(shop, 30 * 24)];
    const kept = [await deliveryAged(shop, 7 * 24 - 1), await deliveryAged(shop, 47)];
    const summary = await runSweep(commerceDeliveryPurgeContract, { batchSize: 1 });
    assert.equal(summary.partial, false);
    assert.ok(summary.deleted >= old.length);
    assert.deepEqual(await remaining(shop.connectionId), kept.sort());
  });

  it('a delivery never processed (Temporal down for days) is kept, however old: purging it would lose it', async () => {
    const shop = await newShop();
    const waiting = await deliveryAged(shop, 30 * 24, false);
    await runSweep(commerceDeliveryPurgeContract, {});
    assert.deepEqual(await remaining(shop.connectionId), [waiting]);
  });

  it('a run out of budget stops cleanly between batches and answers partial: true', async () => {
    const shop = await newShop();
    for (let i = 0; i < 3; i++) await deliveryAged(shop, 200);
    const summary = await runSweep(commerceDeliveryPurgeContract, { budgetMs: 1, batchSize: 1 });
    assert.equal(summary.partial, true);
    assert.ok(summary.deleted >= 1);
  });
});
