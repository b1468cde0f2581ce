import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { deliverAndProcess, newShop } from '../webhooks/receiverKit';
import { fulfilled, keysOf, pii, requestPrivacy } from './privacyKit';

const inbox = (accountId: string) => harness().db('inbox_items').where({ account_id: accountId, kind: 'commerce_privacy_data_request' });

describe('privacy: customers/data_request', () => {
  it("packages the customer's orders and contact into one urgent inbox item, without tokens, and sets fulfilled_at", async () => {
    const shop = await newShop();
    const orders = [pii('lin@example.test', 7701), pii('lin@example.test', 7701)];
    for (const order of orders) await deliverAndProcess(shop, 'orders/create', order);
    await deliverAndProcess(shop, 'orders/create', pii('someone-else@example.test', 7702));
    await harness().db('commerce_connections').where({ id: shop.connectionId }).update({ admin_token_enc: 'v1:aaaa:bbbb:cccc' });

    const request = await requestPrivacy(shop, 'customers/data_request', {
      customer: { id: 7701, email: 'lin@example.test', phone: '555-625-1199' },
      orders_requested: [orders[0].id],
      data_request: { id: 9999 },
    });
    await fulfilled(request.id);

    const [item, ...more] = await inbox(shop.accountId);
    assert.equal(more.length, 0);
    assert.equal(item.urgency, 'urgent');
    assert.equal(item.dedup_key, `commerce:privacy-data-request:${request.id}`);
    const body = item.body;
    assert.deepEqual(
      [body.compliance_request_id, body.data_request_id, body.customer],
      [request.id, 9999, { id: '7701', email: 'lin@example.test' }],
    );
    assert.deepEqual(body.orders.map((o: { order_id: string }) => o.order_id).sort(), orders.map((o) => String(o.id)).sort());
    assert.equal(body.orders_total, 2);
    assert.equal(body.orders_truncated, false);
    assert.equal(body.orders[0].payload.shipping_address.address1, '12 St James Square', "the customer's own data is in the package");
    assert.deepEqual(
      body.contacts.map((c: { email: string }) => c.email),
      ['lin@example.test'],
    );
    assert.equal(body.contacts[0].commerce.order_count, 2);

    const keys = keysOf(body);
    for (const secret of ['token', 'cart_token', 'checkout_token', 'order_status_url', 'admin_token_enc', 'client_secret'])
      assert.ok(!keys.has(secret), `no ${secret}`);
    const text = JSON.stringify(body);
    for (const secret of ['v1:aaaa:bbbb:cccc', shop.clientSecret, 'tok_5e3c', 'key=secret']) assert.ok(!text.includes(secret));
  });

  it('a customer the service knows nothing about still gets a package (empty), so the account can answer the request', async () => {
    const shop = await newShop();
    const request = await requestPrivacy(shop, 'customers/data_request', {
      customer: { id: 1, email: 'stranger@example.test' },
      orders_requested: [],
    });
    await fulfilled(request.id);
    const [item] = await inbox(shop.accountId);
    assert.deepEqual([item.body.orders, item.body.contacts, item.body.orders_total], [[], [], 0]);
  });
});
