import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { deliverAndProcess, newShop, orderLog } from '../webhooks/receiverKit';
import { fulfilled, keysOf, pii, requestPrivacy } from './privacyKit';

describe('privacy: shop/redact', () => {
  it('disconnects the shop with every token dropped, scrubs every order row of the shop and sets fulfilled_at', async () => {
    const shop = await newShop({ subscriptions: ['orders/create', 'app/uninstalled'] });
    const orders = [pii('a@example.test', 1), pii('b@example.test', 2), pii('c@example.test', 3)];
    for (const order of orders) await deliverAndProcess(shop, 'orders/create', order);
    await harness()
      .db('commerce_connections')
      .where({ id: shop.connectionId })
      .update({ admin_token_enc: 'v1:a:b:c', storefront_token_enc: 'v1:d:e:f', webhook_secret_enc: 'v1:g:h:i', revalidation_token: 'rv' });
    const contactBefore = await harness().db('crm_contacts').where({ account_id: shop.accountId, email: 'a@example.test' }).first();

    const request = await requestPrivacy(shop, 'shop/redact', {});
    await fulfilled(request.id);

    const connection = await harness().db('commerce_connections').where({ id: shop.connectionId }).first();
    assert.ok(connection.disconnected_at instanceof Date);
    assert.deepEqual(
      [connection.admin_token_enc, connection.storefront_token_enc, connection.webhook_secret_enc, connection.revalidation_token],
      [null, null, null, null],
    );
    const subs = await harness().db('commerce_webhook_subscriptions').where({ connection_id: shop.connectionId });
    assert.ok(subs.every((s) => s.is_active === false));
    for (const order of orders) {
      const [row] = await orderLog(shop, order.id);
      assert.equal(row.customer_email, null);
      const keys = keysOf(row.raw_payload);
      for (const key of ['email', 'customer', 'shipping_address', 'phone', 'token']) assert.ok(!keys.has(key));
      assert.equal(row.raw_payload.total_price, '25.00');
      assert.equal(row.crm_contact_id, null, 'the backlink goes, as in customers/redact');
    }
    const contactAfter = await harness().db('crm_contacts').where({ id: contactBefore.id }).first();
    assert.equal(contactAfter, undefined, "a contact made only from the shop's orders is deleted");
  });

  it('a shop installed again after the request stays connected; its older orders are still scrubbed', async () => {
    const shop = await newShop();
    const order = pii('d@example.test', 4);
    await deliverAndProcess(shop, 'orders/create', order);
    await harness()
      .db('commerce_connections')
      .where({ id: shop.connectionId })
      .update({ admin_token_enc: 'v1:a:b:c', installed_at: new Date(Date.now() + 3_600_000) });
    const request = await requestPrivacy(shop, 'shop/redact', {});
    await fulfilled(request.id);
    const connection = await harness().db('commerce_connections').where({ id: shop.connectionId }).first();
    assert.deepEqual([connection.disconnected_at, connection.admin_token_enc], [null, 'v1:a:b:c']);
    const [row] = await orderLog(shop, order.id);
    assert.equal(row.customer_email, null);
  });
});
