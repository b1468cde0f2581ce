import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/client';
import { harness } from '../../helpers/harness';
import { eventually, newShop, type TestShop } from '../webhooks/receiverKit';
import { inboxItems, runSweep } from './sweepKit';
import { commerceComplianceSweepContract } from '../../../workflows/commerceComplianceSweep.contract';
import { commercePrivacyRequestContract, commercePrivacyWorkflowId } from '../../../workflows/commercePrivacyRequest.contract';

const OVERDUE = 'commerce_privacy_request_overdue';

/** A privacy request logged `daysAgo` days ago whose workflow never ran (as after a lost start). */
async function loggedRequest(shop: TestShop, topic: string, daysAgo: number): Promise<string> {
  const { db } = harness();
  const [row] = await db('commerce_compliance_requests')
    .insert({
      account_id: shop.accountId,
      connection_id: shop.connectionId,
      topic,
      shop_domain: shop.shopDomain,
      customer_id: '42',
      customer_email: 'late@example.test',
      raw_payload: JSON.stringify({ customer: { id: 42, email: 'late@example.test' } }),
      created_at: db.raw('now() - make_interval(days => ?)', [daysAgo]),
    })
    .returning('id');
  return row.id;
}

const requestRow = (id: string) => harness().db('commerce_compliance_requests').where({ id }).first();

describe('commerce-compliance-sweep', () => {
  it('starts the fulfilment of an unfulfilled request whose workflow never ran', async () => {
    const shop = await newShop();
    const id = await loggedRequest(shop, 'customers/data_request', 2);
    const summary = await runSweep(commerceComplianceSweepContract);
    assert.ok(summary.started >= 1);
    await eventually(
      () => requestRow(id),
      (r) => Boolean(r.fulfilled_at),
      15_000,
      'the request fulfilled',
    );
    assert.equal((await inboxItems(shop.accountId, 'commerce_privacy_data_request')).length, 1);
    assert.equal((await inboxItems(shop.accountId, OVERDUE)).length, 0, 'two days old: no alert');
  });

  it('a request left unfulfilled after its workflow run was terminated gets a new run from the sweep and is fulfilled once, however many sweeps race', async () => {
    const shop = await newShop();
    const id = await loggedRequest(shop, 'customers/data_request', 2);
    const { client } = harness();
    // A real run of the request's workflow that closes before it fulfils anything: no worker polls its queue.
    const stuck = await client.workflow.start(commercePrivacyRequestContract.workflowType, {
      taskQueue: `nobody-polls-${id}`,
      workflowId: commercePrivacyWorkflowId(id),
      args: [{ accountId: shop.accountId, requestId: id, connectionId: shop.connectionId }],
    });
    await stuck.terminate('test: the run closes with the request unfulfilled');
    assert.equal((await stuck.describe()).status.name, 'TERMINATED');

    const summaries = await Promise.all([runSweep(commerceComplianceSweepContract), runSweep(commerceComplianceSweepContract)]);
    assert.ok(
      summaries.some((s) => s.started >= 1),
      'a sweep started a new run',
    );
    const row = await eventually(
      () => requestRow(id),
      (r) => Boolean(r.fulfilled_at),
      15_000,
      'the request fulfilled',
    );
    const latest = client.workflow.getHandle(commercePrivacyWorkflowId(id));
    await client.withDeadline(Date.now() + 15_000, () => latest.result());
    assert.notEqual((await latest.describe()).runId, stuck.firstExecutionRunId, 'a new run of the same id');
    assert.equal((await inboxItems(shop.accountId, 'commerce_privacy_data_request')).length, 1, 'one data package');

    await runSweep(commerceComplianceSweepContract);
    assert.deepEqual((await requestRow(id)).fulfilled_at, row.fulfilled_at, 'a fulfilled request is left alone');
  });

  it('a request found unfulfilled again after its run completed is fulfilled by a new run without a second data package', async () => {
    const shop = await newShop();
    const id = await loggedRequest(shop, 'customers/data_request', 2);
    const { client } = harness();
    await runSweep(commerceComplianceSweepContract);
    const handle = client.workflow.getHandle(commercePrivacyWorkflowId(id));
    assert.equal((await client.withDeadline(Date.now() + 15_000, () => handle.result())).status, 'fulfilled');
    const firstRun = (await handle.describe()).runId;
    // The account sent the package on and resolved it; the row lost its stamp (as after restoring an older backup).
    await harness()
      .db('inbox_items')
      .where({ account_id: shop.accountId, kind: 'commerce_privacy_data_request' })
      .update({ resolved_at: new Date() });
    await harness().db('commerce_compliance_requests').where({ id }).update({ fulfilled_at: null });

    const summary = await runSweep(commerceComplianceSweepContract);
    assert.ok(summary.started >= 1);
    await eventually(
      () => requestRow(id),
      (r) => Boolean(r.fulfilled_at),
      15_000,
      'the request fulfilled again',
    );
    await client.withDeadline(Date.now() + 15_000, () => handle.result());
    assert.notEqual((await handle.describe()).runId, firstRun, 'the completed run was followed by a new one');
    assert.equal((await inboxItems(shop.accountId, 'commerce_privacy_data_request')).length, 1, 'the package is not sent twice');
  });

  it('a request unfulfilled after 30 days raises one urgent alert and stamps alerted_at; the next sweep raises none', async () => {
    const shop = await newShop();
    const overdue = await loggedRequest(shop, 'customers/redact', 31);
    const young = await loggedRequest(shop, 'customers/redact', 29);
    const summary = await runSweep(commerceComplianceSweepContract);
    assert.ok(summary.alerted >= 1);
    const [alert, ...more] = await inboxItems(shop.accountId, OVERDUE);
    assert.equal(more.length, 0, 'the 29-day-old request is not alerted');
    assert.deepEqual(
      [alert.urgency, alert.dedup_key, alert.body.compliance_request_id],
      ['urgent', `commerce:privacy-overdue:${overdue}`, overdue],
    );
    assert.ok((await requestRow(overdue)).alerted_at instanceof Date);
    assert.equal((await requestRow(young)).alerted_at, null);
    await runSweep(commerceComplianceSweepContract);
    assert.equal((await inboxItems(shop.accountId, OVERDUE)).length, 1);
  });

  it('a request the service has no rules for stays unfulfilled, is alerted once past 30 days and no workflow runs for it', async () => {
    const shop = await newShop();
    const id = await loggedRequest(shop, 'customers/unknown_topic', 40);
    await runSweep(commerceComplianceSweepContract);
    await runSweep(commerceComplianceSweepContract);
    await assert.rejects(harness().client.workflow.getHandle(`commerce-privacy:${id}`).describe(), WorkflowNotFoundError);
    const row = await requestRow(id);
    assert.deepEqual([row.fulfilled_at, row.alerted_at instanceof Date], [null, true]);
    // Resolving the alert does not bring it back: the request was alerted once.
    await harness().db('inbox_items').where({ account_id: shop.accountId, kind: OVERDUE }).update({ resolved_at: new Date() });
    await runSweep(commerceComplianceSweepContract);
    assert.equal((await inboxItems(shop.accountId, OVERDUE)).length, 1);
  });

  it('a run out of budget stops cleanly and answers partial: true', async () => {
    const shop = await newShop();
    await loggedRequest(shop, 'customers/unknown_topic', 1);
    const summary = await runSweep(commerceComplianceSweepContract, { budgetMs: 1, pageSize: 1 });
    assert.equal(summary.partial, true);
  });
});
