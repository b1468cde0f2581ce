import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { deliver, deliveryRecords, newShop } from './receiverKit';

/** An order whose `note_attributes` nests `levels` arrays: `[[[…]]]`. */
const deepOrder = (levels: number) => `{"id":1,"note_attributes":${'['.repeat(levels)}${']'.repeat(levels)}}`;

/**
 * Rule: a verified delivery is never answered with a 5xx, and nothing recursive runs on a body nested without bound.
 * A body nested deeper than 64 levels is recorded as failed `json_too_deep`, without its payload, and answered 200.
 */
describe('commerce webhook receiver: verified bodies nested too deep', () => {
  it('a verified body nested deeper than 64 levels is 200, recorded failed json_too_deep without its payload, and a retry is 200 too', async () => {
    const shop = await newShop();
    const body = deepOrder(100_000);
    const first = await deliver(shop, 'orders/create', body);
    assert.equal(first.status, 200, first.text);
    const retry = await deliver(shop, 'orders/create', body, { webhookId: first.webhookId });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.duplicate, true);
    const records = await deliveryRecords(shop);
    assert.equal(records.length, 1);
    assert.deepEqual([records[0].outcome, records[0].error_code], ['failed', 'json_too_deep']);
    const stored = await harness().db('commerce_webhook_deliveries').where({ connection_id: shop.connectionId }).first();
    assert.equal(stored.payload, null, 'nothing of the body is stored');
    const items = await harness().db('inbox_items').where({ account_id: shop.accountId, kind: 'commerce_webhook_failed' });
    assert.equal(items.length, 1);
  });
});
