import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { jobSearchAttributes } from '../../../src/temporal/jobs';
import { AccountIdKey, ConnectionIdKey, JobKindKey } from '../../../src/temporal/searchAttributes';
import { commerceShopContract, type CommerceShopInput, commerceShopWorkflowId } from '../../../workflows/commerceShop.contract';
import { progressQuery } from '../../../workflows/progress.contract';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { deliverAndProcess, eventually, newShop, type TestShop } from './receiverKit';

/** A recorded products/update delivery, already handed over (the test starts the shop's workflow itself). */
async function productDelivery(shop: TestShop, id: number): Promise<void> {
  const webhookId = randomUUID();
  await harness().db('commerce_webhook_deliveries').insert({
    account_id: shop.accountId,
    connection_id: shop.connectionId,
    webhook_id: webhookId,
    topic: 'products/update',
    payload: { id },
    dispatched_at: new Date(),
  });
}

describe('the shop entity workflow', () => {
  it('continues as new past its history bound, each new run draining what the last one left, and keeps its search attributes', async function () {
    this.timeout(30_000);
    const { client, taskQueue, bundle } = harness();
    const shop = await newShop();
    for (let id = 1; id <= 4; id++) await productDelivery(shop, id);
    // One delivery per pass, and a bound the second pass of a run crosses (a pass adds about six events).
    const input: CommerceShopInput = {
      accountId: shop.accountId,
      connectionId: shop.connectionId,
      batch: 1,
      passBudgetMs: 0,
      historyEventsPerRun: 12,
    };
    const first = await client.workflow.start(commerceShopContract.workflowType, {
      workflowId: commerceShopWorkflowId(shop.connectionId),
      taskQueue,
      args: [input],
      typedSearchAttributes: jobSearchAttributes('commerce-shop', shop.accountId, { ConnectionId: shop.connectionId }),
    });
    // A delivery through the receiver joins the chain by signal-with-start.
    await deliverAndProcess(shop, 'products/update', { id: 5 });

    const latest = client.workflow.getHandle(first.workflowId);
    const progress = await eventually(
      () => latest.query(progressQuery),
      (p) => p.done === 5,
      15_000,
      'five deliveries processed',
    );
    assert.equal(progress.done, 5);
    const rows = await harness().db('commerce_cache_invalidations').where({ connection_id: shop.connectionId });
    assert.equal(rows.length, 5, 'each delivery handled once');

    const histories = [];
    let runId: string | undefined = first.firstExecutionRunId;
    // A chain that never ends would keep this loop going: at most 50 runs, then the assertion below says so.
    while (runId && histories.length < 50) {
      const history = await client.workflow.getHandle(first.workflowId, runId).fetchHistory();
      histories.push({ workflowId: first.workflowId, history });
      runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    }
    assert.ok(!runId, `the chain of runs ends once the deliveries are done (${histories.length} runs read)`);
    assert.ok(histories.length >= 3, `five deliveries at about two per run make at least 3 runs, got ${histories.length}`);
    for (const { history } of histories.slice(0, -1)) {
      const carried = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes;
      assert.ok(carried, 'each run but the last continued as new');
      assert.ok((history.events?.length ?? 0) <= 30, `a run's history stays bounded (${history.events?.length} events)`);
    }
    const described = await latest.describe();
    assert.equal(described.typedSearchAttributes.get(AccountIdKey), shop.accountId);
    assert.equal(described.typedSearchAttributes.get(JobKindKey), 'commerce-shop');
    assert.equal(described.typedSearchAttributes.get(ConnectionIdKey), shop.connectionId);

    // Determinism guard: every closed run replays with the current bundle (the latest may not have had its first
    // workflow task yet, and a history that ends before it cannot be replayed).
    for await (const result of Worker.runReplayHistories({ workflowBundle: bundle }, histories.slice(0, -1))) {
      assert.equal(result.error, undefined, `replay of ${result.workflowId} diverged: ${String(result.error)}`);
    }
  });

  it("the shop's job is visible to its account through the jobs API", async () => {
    const shop = await newShop();
    await deliverAndProcess(shop, 'products/update', { id: 1 });
    const res = await call('GET', `/api/jobs/${encodeURIComponent(commerceShopWorkflowId(shop.connectionId))}`, {
      token: shop.account.ownerToken,
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      [res.body.kind, res.body.status, res.body.connection_id, res.body.progress?.done],
      ['commerce-shop', 'running', shop.connectionId, 1],
    );
  });
});
