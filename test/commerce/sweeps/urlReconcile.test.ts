import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../../src/app/activities';
import { createWorker } from '../../../src/temporal/worker';
import { harness } from '../../helpers/harness';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { connectShop, registerApp, startCommerceWorld, type CommerceWorld } from '../connection/fixtures';
import { newShop } from '../webhooks/receiverKit';
import { inboxItems } from './sweepKit';
import { commerceWebhookUrlReconcileContract } from '../../../workflows/commerceWebhookUrlReconcile.contract';

const OLD_URL = 'https://old-host.example';
const KIND = 'commerce_webhook_url_reconcile_failed';

describe('commerce-webhook-url-reconcile sweep', () => {
  let world: CommerceWorld;
  let account: TestAccount;
  let worker: { worker: Worker; connection: NativeConnection };
  let running: Promise<void>;
  const taskQueue = `url-reconcile-${randomUUID()}`;
  const currentUrl = () => `${harness().baseUrl}/api/webhooks/commerce`;

  before(async () => {
    const { deps, bundle, temporalAddress } = harness();
    // Shops connected while the service lived at OLD_URL: their webhooks point there.
    world = await startCommerceWorld({ PUBLIC_APP_URL: OLD_URL });
    account = await newAccount();
    await registerApp(world, account);
    // The sweep runs on a worker whose platform client talks to the simulator; PUBLIC_APP_URL is the harness app's.
    worker = await createWorker({
      address: temporalAddress,
      namespace: deps.temporal.namespace,
      taskQueue,
      bundle,
      activities: createActivities({
        config: { ...deps.config, COMMERCE_SHOP_URL_TEMPLATE: world.sim.shopUrlTemplate },
        db: deps.db,
        logger: deps.logger,
      }),
    });
    running = worker.worker.run();
  });
  after(async () => {
    worker.worker.shutdown();
    await running;
    await worker.connection.close();
    await world.close();
  });

  async function sweep(input: Record<string, unknown> = {}) {
    const { client } = harness();
    const handle = await client.workflow.start(commerceWebhookUrlReconcileContract.workflowType, {
      taskQueue,
      workflowId: `test-url-reconcile-${randomUUID()}`,
      args: [input],
    });
    return client.withDeadline(Date.now() + 30_000, () => handle.result());
  }

  it('moves every standard topic of a shop whose subscriptions point at an old URL to the current webhook URL', async () => {
    const { connection, shopDomain } = await connectShop(world, account);
    assert.ok(world.sim.webhooks(shopDomain).every((w) => w.address === `${OLD_URL}/api/webhooks/commerce`));
    const summary = await sweep();
    assert.equal(summary.endpoint_url, currentUrl());
    const entry = summary.connections.find((c: { connection_id: string }) => c.connection_id === connection.id);
    assert.deepEqual([entry.status, entry.registered, entry.failed_topics], ['reregistered', 14, 0]);
    const hooks = world.sim.webhooks(shopDomain);
    assert.equal(hooks.length, 11);
    assert.ok(hooks.every((w) => w.address === currentUrl()));
    const subs = await harness().db('commerce_webhook_subscriptions').where({ connection_id: connection.id });
    assert.equal(subs.length, 14);
    assert.ok(subs.every((s) => s.endpoint_url === currentUrl() && s.is_active));

    const again = await sweep();
    assert.equal(
      again.connections.find((c: { connection_id: string }) => c.connection_id === connection.id),
      undefined,
      'nothing left to move',
    );
  });

  it('a shop that cannot be re-registered gets one inbox item, however often the sweep fails on it, and the others still move', async () => {
    const broken = await newShop({ subscriptions: ['orders/create'] }); // no stored token: the platform cannot be called
    await harness()
      .db('commerce_webhook_subscriptions')
      .where({ connection_id: broken.connectionId })
      .update({ endpoint_url: `${OLD_URL}/api/webhooks/commerce` });
    const { connection, shopDomain } = await connectShop(world, account);
    const summary = await sweep();
    const entry = summary.connections.find((c: { connection_id: string }) => c.connection_id === broken.connectionId);
    assert.deepEqual([entry.status, entry.code], ['failed', 'commerce_connection_disconnected']);
    assert.ok(world.sim.webhooks(shopDomain).every((w) => w.address === currentUrl()));
    assert.equal(summary.connections.find((c: { connection_id: string }) => c.connection_id === connection.id).status, 'reregistered');
    await sweep();
    const items = await inboxItems(broken.accountId, KIND);
    assert.equal(items.length, 1);
    assert.equal(items[0].dedup_key, `commerce:webhook-url-reconcile-failed:${broken.connectionId}`);
    assert.equal(items[0].body.code, 'commerce_connection_disconnected');
  });

  it('platform failures of some topics are reported in the inbox item with the topics that failed', async () => {
    const { connection, shopDomain } = await connectShop(world, account);
    world.sim.injectFault({ path: `/${shopDomain}/admin/api/2025-04/webhooks.json`, kind: '5xx', times: 1 });
    const summary = await sweep();
    const entry = summary.connections.find((c: { connection_id: string }) => c.connection_id === connection.id);
    assert.equal(entry.status, 'failed');
    const [item] = await inboxItems(account.accountId, KIND);
    assert.equal(item.body.connection_id, connection.id);
    assert.ok(item.body.failed_topics.length > 0);
    assert.ok(item.body.failed_topics.every((f: { code: string }) => f.code === 'commerce_unavailable'));
    await sweep();
    assert.ok(
      world.sim.webhooks(shopDomain).every((w) => w.address === currentUrl()),
      'the next run completes the move',
    );
  });

  it('a run out of budget stops cleanly and answers partial: true', async () => {
    await connectShop(world, account);
    const summary = await sweep({ budgetMs: 1, pageSize: 1 });
    assert.equal(summary.partial, true);
  });
});
