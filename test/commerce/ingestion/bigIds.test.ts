import assert from 'node:assert/strict';
import { deliverAndProcess, newShop, orderLog } from '../webhooks/receiverKit';
import { harness } from '../../helpers/harness';
import { fulfilled, pii } from '../privacy/privacyKit';

const ORDER = '9007199254740993'; // 2^53 + 1
const CUSTOMER = '12345678901234567891';

/** Rule: the platform's ids are 64-bit integers; an id beyond 2^53 is stored with every digit, never rounded or refused. */
describe('commerce ingestion: ids beyond 2^53', () => {
  it('an orders/create delivery with such ids is logged under its exact id, and customers/redact finds it by the exact customer id', async () => {
    const shop = await newShop();
    const raw = JSON.stringify(pii('big@example.test', 1, { id: 1, customer: { id: 2, email: 'big@example.test' } }))
      .replace('"id":1,', `"id":${ORDER},`)
      .replace('"customer":{"id":2,', `"customer":{"id":${CUSTOMER},`);
    assert.ok(raw.includes(`"id":${ORDER},`) && raw.includes(`"id":${CUSTOMER},`));
    const record = await deliverAndProcess(shop, 'orders/create', raw);
    assert.equal(record.outcome, 'processed', JSON.stringify(record));
    const [row] = await orderLog(shop, ORDER);
    assert.ok(row, 'logged under the exact id');
    assert.equal(String(row.raw_payload.customer.id), CUSTOMER, 'the payload keeps the customer id exactly');

    await deliverAndProcess(
      shop,
      'customers/redact',
      `{"shop_id":954889,"shop_domain":"${shop.shopDomain}","customer":{"id":${CUSTOMER},"email":"renamed@example.test"},"orders_to_redact":[]}`,
    );
    const request = await harness()
      .db('commerce_compliance_requests')
      .where({ account_id: shop.accountId, topic: 'customers/redact' })
      .first();
    await fulfilled(request.id);
    const [scrubbed] = await orderLog(shop, ORDER);
    assert.equal(scrubbed.customer_email, null, 'found by the exact customer id alone (another email, no order listed) and redacted');
    const done = await harness().db('commerce_compliance_requests').where({ id: request.id }).first();
    assert.equal(done.customer_id, null, 'the fulfilled redact keeps no customer id of its own');
  });
});
