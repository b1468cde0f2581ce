import assert from 'node:assert/strict';
import { Worker } from '@temporalio/worker';
import { SCHEDULES } from '../../../src/app/schedules';
import { AccountIdKey, JobKindKey, SYSTEM_ACCOUNT } from '../../../src/temporal/searchAttributes';
import { harness } from '../../helpers/harness';
import { newShop } from '../webhooks/receiverKit';
import { age, startCronApp, type CronApp } from './sweepKit';

/** doc3 "Reliability sweeps" (UTC crons) plus the delivery-record purge. */
const EXPECTED = {
  'commerce-webhook-health': ['0 * * * *', 'commerceWebhookHealth'],
  'commerce-compliance-sweep': ['30 * * * *', 'commerceComplianceSweep'],
  'commerce-scope-drift': ['0 6 * * *', 'commerceScopeDrift'],
  'commerce-webhook-url-reconcile': ['0 5 * * *', 'commerceWebhookUrlReconcile'],
  'commerce-delivery-purge': ['15 3 * * *', 'commerceDeliveryPurge'],
} as const;

describe('commerce sweep schedules', () => {
  let app: CronApp;
  before(async () => {
    app = await startCronApp();
  });
  after(async () => {
    await app.close();
  });

  it("the schedule table has each sweep with the spec's cron and overlap SKIP", () => {
    for (const [name, [cron, workflowType]] of Object.entries(EXPECTED)) {
      const entries = SCHEDULES.filter((e) => e.name === name);
      assert.equal(entries.length, 1, name);
      assert.deepEqual([entries[0].cron, entries[0].workflowType, entries[0].overlap, entries[0].args], [cron, workflowType, 'SKIP', []]);
    }
  });

  for (const name of Object.keys(EXPECTED)) {
    it(`POST /api/cron/${name} runs the sweep now as a _system job that completes`, async () => {
      const res = await app.call(name);
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.kind, name);
      const handle = harness().client.workflow.getHandle(res.body.id);
      const result = await harness().client.withDeadline(Date.now() + 30_000, () => handle.result());
      assert.equal(typeof result, 'object');
      const run = await handle.describe();
      assert.equal(run.type, EXPECTED[name as keyof typeof EXPECTED][1]);
      assert.equal(run.typedSearchAttributes.get(AccountIdKey), SYSTEM_ACCOUNT);
      assert.equal(run.typedSearchAttributes.get(JobKindKey), name);
    });
  }

  it('a cron call with a wrong secret answers 401', async () => {
    const res = await app.call('commerce-webhook-health', 'not-the-cron-secret-not-the-cron-secret');
    assert.equal(res.status, 401);
  });

  it('the sweeps replay from their recorded histories with the current bundle (determinism guard)', async () => {
    const { client, db } = harness();
    // Work for every branch: a silent shop with missing scopes, a delivery record to purge, a request to (re)start.
    const shop = await newShop();
    await age(shop.connectionId, 100, null);
    await db('commerce_webhook_deliveries').insert({
      account_id: shop.accountId,
      connection_id: shop.connectionId,
      webhook_id: 'old',
      topic: 'orders/create',
      received_at: db.raw(`now() - interval '8 days'`),
    });
    const [request] = await db('commerce_compliance_requests')
      .insert({ account_id: shop.accountId, connection_id: shop.connectionId, topic: 'shop/redact', shop_domain: shop.shopDomain })
      .returning('id');
    const ids: string[] = [];
    for (const name of Object.keys(EXPECTED)) ids.push((await app.call(name)).body.id);
    ids.push(`commerce-privacy:${request.id}`); // started by the compliance sweep, so read after it
    const histories = [];
    for (const workflowId of ids) {
      const handle = client.workflow.getHandle(workflowId);
      await client.withDeadline(Date.now() + 30_000, () => handle.result());
      histories.push({ workflowId, history: await handle.fetchHistory() });
    }
    let replayed = 0;
    for await (const result of Worker.runReplayHistories({ workflowBundle: harness().bundle }, histories)) {
      assert.equal(result.error, undefined, `replay of ${result.workflowId} diverged: ${String(result.error)}`);
      replayed++;
    }
    assert.equal(replayed, ids.length);
  });
});
