import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { jobSearchAttributes } from '../../src/temporal/jobs';
import { SYSTEM_ACCOUNT } from '../../src/temporal/searchAttributes';
import { commerceOrderBackfillContract, type OrderBackfillSummary } from '../../workflows/commerceOrderBackfill.contract';
import { harness } from '../helpers/harness';
import { Receiver, verifyStandardWebhook } from '../email/webhooks/receiver';
import {
  newConnectedShop,
  retireConnectedShops,
  startBackfillWorker,
  startCommerceWorld,
  type BackfillWorker,
  type CommerceWorld,
} from '../commerce/backfill/backfillKit';
import { createEndpoint, deliveryResult, eventOf, startAlertWorld, type AlertWorld } from './fixtures';

describe('sweep.partial from a real sweep', function () {
  this.timeout(60_000);
  let world: AlertWorld;
  let commerce: CommerceWorld;
  let worker: BackfillWorker;
  const taskQueue = `alerts-sweep-${randomUUID()}`;

  before(async () => {
    world = await startAlertWorld();
    commerce = await startCommerceWorld();
    worker = await startBackfillWorker(commerce, taskQueue);
  });
  after(async () => {
    await retireConnectedShops();
    await worker?.stop();
    await commerce?.close();
    await world?.stop();
  });

  it('the order backfill sweep (a _system job) out of budget sends sweep.partial to the account whose shop it skipped', async () => {
    const receiver = await Receiver.start();
    try {
      const shop = await newConnectedShop(commerce);
      const hook = await createEndpoint(world.app, shop.account.ownerToken, { url: receiver.url, events: ['sweep.partial'] });
      const { client } = harness();
      const workflowId = `cron:commerce-order-backfill:${randomUUID()}`;
      const summary: OrderBackfillSummary = await client.withDeadline(Date.now() + 30_000, () =>
        client.workflow.execute(commerceOrderBackfillContract.workflowType, {
          taskQueue,
          workflowId,
          // Spent once the first page of connections is listed: every shop of it is skipped.
          args: [{ budgetMs: 1 }],
          typedSearchAttributes: jobSearchAttributes(commerceOrderBackfillContract.jobKind, SYSTEM_ACCOUNT),
        }),
      );
      assert.equal(summary.partial, true);
      const event = await eventOf(shop.accountId, 'sweep.partial');
      await deliveryResult(event.id);
      assert.equal(receiver.received.length, 1);
      assert.ok(verifyStandardWebhook(hook.secret, receiver.received[0].headers, receiver.received[0].body));
      const body = JSON.parse(receiver.received[0].body.toString('utf8'));
      assert.deepEqual([body.data.sweep.id, body.data.sweep.kind], [workflowId, 'commerce-order-backfill']);
      assert.deepEqual(body.data.unfinished, [{ connection_id: shop.connectionId, shop_domain: shop.shopDomain, status: 'skipped' }]);
    } finally {
      await receiver.close();
    }
  });
});
