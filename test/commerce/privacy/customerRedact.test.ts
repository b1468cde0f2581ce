import assert from 'node:assert/strict';
import { createContact } from '../../../src/crm/contactService';
import { ORDER_NOTE_REDACTED } from '../../../src/commerce/privacy/store';
import { JobKindKey, AccountIdKey } from '../../../src/temporal/searchAttributes';
import { harness } from '../../helpers/harness';
import { contactByEmail, deliverAndProcess, newShop, orderLog } from '../webhooks/receiverKit';
import { fulfilled, keysOf, pii, requestPrivacy } from './privacyKit';

const PII_KEYS = [
  'email',
  'contact_email',
  'phone',
  'customer',
  'billing_address',
  'shipping_address',
  'browser_ip',
  'note',
  'properties',
  'token',
  'order_status_url',
];

describe('privacy: customers/redact', () => {
  it("a redact delivery ends with the customer's orders scrubbed, the commerce-made contact deleted and fulfilled_at set", async () => {
    const shop = await newShop();
    const [first, second] = [pii('ada@example.test', 4401), pii('ADA@example.test', 4401)];
    const other = pii('grace@example.test', 4402);
    for (const order of [first, second, other]) await deliverAndProcess(shop, 'orders/create', order);
    assert.ok(await contactByEmail(shop.accountId, 'ada@example.test'));

    const request = await requestPrivacy(shop, 'customers/redact', {
      customer: { id: 4401, email: 'ada@example.test' },
      orders_to_redact: [first.id, second.id],
    });
    const done = await fulfilled(request.id);
    assert.ok(done.fulfilled_at instanceof Date);

    for (const order of [first, second]) {
      const [row] = await orderLog(shop, order.id);
      assert.equal(row.customer_email, null);
      assert.equal(row.crm_contact_id, null);
      const keys = keysOf(row.raw_payload);
      for (const key of PII_KEYS) assert.ok(!keys.has(key), `${key} is gone from the payload`);
      assert.deepEqual(
        [row.raw_payload.id, row.raw_payload.total_price, row.raw_payload.name, row.raw_payload.line_items[0].title],
        [order.id, '25.00', order.name, 'Tea'],
      );
      assert.equal(Number(row.total_amount_cents), 2500);
    }
    assert.equal(await contactByEmail(shop.accountId, 'ada@example.test'), undefined);

    const [untouched] = await orderLog(shop, other.id);
    assert.equal(untouched.customer_email, 'grace@example.test');
    assert.equal(untouched.raw_payload.customer.first_name, 'Ada');
    assert.equal((await contactByEmail(shop.accountId, 'grace@example.test')).commerce_order_count, 1);

    // fulfilled_at is written by the run's last activity; the run itself closes a moment later.
    const handle = harness().client.workflow.getHandle(`commerce-privacy:${request.id}`);
    await handle.result();
    const run = await handle.describe();
    assert.equal(run.status.name, 'COMPLETED');
    assert.equal(run.typedSearchAttributes.get(JobKindKey), 'commerce-privacy');
    assert.equal(run.typedSearchAttributes.get(AccountIdKey), shop.accountId);
  });

  it('a redacted order stays redacted: a later orders/updated delivery with personal data writes none of it back', async () => {
    const shop = await newShop();
    const order = pii('late@example.test', 6601);
    await deliverAndProcess(shop, 'orders/create', order);
    const request = await requestPrivacy(shop, 'customers/redact', {
      customer: { id: 6601, email: 'late@example.test' },
      orders_to_redact: [order.id],
    });
    await fulfilled(request.id);

    const later = {
      ...order,
      total_price: '30.00',
      current_total_price: '30.00',
      updated_at: new Date(Date.parse(order.updated_at) + 60_000).toISOString(),
    };
    await deliverAndProcess(shop, 'orders/updated', later);

    const [row] = await orderLog(shop, order.id);
    assert.ok(row.redacted_at instanceof Date);
    assert.equal(Number(row.total_amount_cents), 3000, 'the update itself still applies');
    assert.equal(row.customer_email, null);
    assert.equal(row.crm_contact_id, null);
    for (const key of PII_KEYS) assert.ok(!keysOf(row.raw_payload).has(key), `${key} stays out of the payload`);
    assert.equal(await contactByEmail(shop.accountId, 'late@example.test'), undefined, 'the contact is not recreated');
  });

  it('a contact the account created itself is kept, its commerce rollups reset and its order notes scrubbed', async () => {
    const shop = await newShop();
    const contact = await createContact(harness().db, shop.accountId, { name: 'Ada L.', email: 'ada.kept@example.test', tags: ['vip'] });
    const order = pii('ada.kept@example.test', 5501);
    await deliverAndProcess(shop, 'orders/create', order);
    const before = await contactByEmail(shop.accountId, 'ada.kept@example.test');
    assert.equal(before.commerce_order_count, 1);

    const request = await requestPrivacy(shop, 'customers/redact', {
      customer: { id: 5501, email: 'ada.kept@example.test' },
      orders_to_redact: [order.id],
    });
    await fulfilled(request.id);

    const after = await contactByEmail(shop.accountId, 'ada.kept@example.test');
    assert.equal(after.id, contact.id);
    assert.deepEqual([after.name, after.tags, after.source], ['Ada L.', ['vip'], 'api']);
    assert.deepEqual(
      [
        Number(after.commerce_total_spent_cents),
        after.commerce_order_count,
        after.commerce_first_order_at,
        after.commerce_first_order_id,
        after.commerce_last_order_at,
      ],
      [0, 0, null, null, null],
    );
    const notes = await harness()
      .db('crm_contact_activities')
      .where({ account_id: shop.accountId, external_id: `commerce:order:${order.id}` });
    assert.equal(notes.length, 1);
    assert.equal(notes[0].body, ORDER_NOTE_REDACTED);
    assert.deepEqual(notes[0].metadata, { source: 'commerce', redacted: true, order_id: String(order.id) });
  });

  it('an order whose email was edited away is still found by the customer id', async () => {
    const shop = await newShop();
    const order = pii('old-address@example.test', 6601);
    await deliverAndProcess(shop, 'orders/create', order);
    const request = await requestPrivacy(shop, 'customers/redact', {
      customer: { id: 6601, email: 'new-address@example.test' },
      orders_to_redact: [],
    });
    await fulfilled(request.id);
    const [row] = await orderLog(shop, order.id);
    assert.equal(row.customer_email, null);
    assert.ok(!keysOf(row.raw_payload).has('customer'));
  });
});
