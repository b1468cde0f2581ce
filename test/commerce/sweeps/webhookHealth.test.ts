import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { newShop } from '../webhooks/receiverKit';
import { age, inboxItems, runSweep } from './sweepKit';
import { commerceWebhookHealthContract } from '../../../workflows/commerceWebhookHealth.contract';

const KIND = 'commerce_webhooks_silent';
const topics = ['orders/create', 'orders/updated'];

describe('commerce-webhook-health sweep', () => {
  it('flags a shop installed over 72 hours whose active subscriptions have been silent 72 hours or more', async () => {
    const silent = await newShop({ subscriptions: topics });
    await age(silent.connectionId, 100, 73);
    const never = await newShop({ subscriptions: topics });
    await age(never.connectionId, 100, null);
    const summary = await runSweep(commerceWebhookHealthContract);
    for (const shop of [silent, never]) {
      const items = await inboxItems(shop.accountId, KIND);
      assert.equal(items.length, 1);
      assert.equal(items[0].dedup_key, `commerce:webhooks-silent:${shop.connectionId}`);
      assert.equal(items[0].body.connection_id, shop.connectionId);
      assert.equal(items[0].body.active_subscriptions, 2);
    }
    const flagged = summary.connections.filter((c: { connection_id: string }) =>
      [silent.connectionId, never.connectionId].includes(c.connection_id),
    );
    assert.deepEqual(
      flagged.map((c: { status: string }) => c.status),
      ['silent', 'silent'],
    );
    assert.equal(summary.partial, false);
  });

  it('flags a shop installed over 72 hours that has no active subscription at all', async () => {
    const none = await newShop();
    await age(none.connectionId, 80, null);
    const onlyInactive = await newShop({ subscriptions: ['orders/create'] });
    await age(onlyInactive.connectionId, 80, 1);
    await harness().db('commerce_webhook_subscriptions').where({ connection_id: onlyInactive.connectionId }).update({ is_active: false });
    await runSweep(commerceWebhookHealthContract);
    assert.equal((await inboxItems(none.accountId, KIND)).length, 1);
    assert.equal((await inboxItems(onlyInactive.accountId, KIND)).length, 1);
  });

  it('leaves alone a shop with one delivery in the last 72 hours, a shop installed under 72 hours ago and a disconnected shop', async () => {
    const lively = await newShop({ subscriptions: topics });
    await age(lively.connectionId, 100, 80);
    await harness()
      .db('commerce_webhook_subscriptions')
      .where({ connection_id: lively.connectionId, topic: 'orders/updated' })
      .update({ last_received_at: harness().db.raw(`now() - interval '71 hours'`) });
    const fresh = await newShop();
    await age(fresh.connectionId, 70, null);
    const gone = await newShop({ subscriptions: topics });
    await age(gone.connectionId, 100, 100);
    await harness().db('commerce_connections').where({ id: gone.connectionId }).update({ disconnected_at: new Date() });
    await runSweep(commerceWebhookHealthContract);
    for (const shop of [lively, fresh, gone]) assert.deepEqual(await inboxItems(shop.accountId, KIND), []);
  });

  it('a second run finds the same silent shop again and raises no second item while the first is open', async () => {
    const shop = await newShop({ subscriptions: topics });
    await age(shop.connectionId, 200, 150);
    await runSweep(commerceWebhookHealthContract);
    const again = await runSweep(commerceWebhookHealthContract);
    const entry = again.connections.find((c: { connection_id: string }) => c.connection_id === shop.connectionId);
    assert.deepEqual([entry.status, entry.inbox_item_created], ['silent', false]);
    assert.equal((await inboxItems(shop.accountId, KIND)).length, 1);
  });

  it('a run out of budget stops cleanly and answers partial: true', async () => {
    const shop = await newShop();
    await age(shop.connectionId, 100, null);
    const summary = await runSweep(commerceWebhookHealthContract, { budgetMs: 1, pageSize: 1 });
    assert.equal(summary.partial, true);
  });
});
