import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { eventually, newShop, type TestShop } from '../webhooks/receiverKit';
import { inboxItems, runSweep } from './sweepKit';
import { commerceComplianceSweepContract } from '../../../workflows/commerceComplianceSweep.contract';

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

  it('a request the service has no rules for stays unfulfilled, is alerted once past 30 days and its workflow never runs twice', async () => {
    const shop = await newShop();
    const id = await loggedRequest(shop, 'customers/unknown_topic', 40);
    await runSweep(commerceComplianceSweepContract);
    const handle = harness().client.workflow.getHandle(`commerce-privacy:${id}`);
    assert.deepEqual(await harness().client.withDeadline(Date.now() + 15_000, () => handle.result()), {
      status: 'unsupported_topic',
      topic: 'customers/unknown_topic',
    });
    const firstRun = (await handle.describe()).runId;

    const second = await runSweep(commerceComplianceSweepContract);
    assert.ok(second.already_running >= 1);
    assert.equal((await handle.describe()).runId, firstRun, 'the completed run was not repeated');
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
