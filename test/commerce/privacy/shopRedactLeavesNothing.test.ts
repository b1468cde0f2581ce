import assert from 'node:assert/strict';
import { createContact } from '../../../src/crm/contactService';
import { ORDER_NOTE_REDACTED } from '../../../src/commerce/privacy/store';
import { harness } from '../../helpers/harness';
import { contactByEmail, deliverAndProcess, newShop, orderLog, type TestShop } from '../webhooks/receiverKit';
import { fulfilled, pii, requestPrivacy } from './privacyKit';

/** Everything the account's rows hold that could carry what a shop's customers sent, as one text per table. */
async function storedText(accountId: string): Promise<Record<string, string>> {
  const { db } = harness();
  const tables = [
    'commerce_orders_log',
    'commerce_compliance_requests',
    'commerce_webhook_deliveries',
    'crm_contacts',
    'crm_contact_activities',
    'workflow_trigger_outbox',
    'inbox_items',
  ];
  const out: Record<string, string> = {};
  for (const table of tables) out[table] = JSON.stringify(await db(table).where({ account_id: accountId }));
  return out;
}

function assertNoneOf(markers: string[], text: Record<string, string>): void {
  for (const [table, rows] of Object.entries(text)) {
    for (const marker of markers) assert.ok(!rows.toLowerCase().includes(marker.toLowerCase()), `${table} still holds "${marker}"`);
  }
}

/** Rule: shop/redact anonymises or disconnects every person's data that came from the shop (doc3), as customers/redact does for one. */
describe("privacy: shop/redact leaves nothing of the shop's customers", () => {
  const markers = [
    'ada@example.test',
    'grace@example.test',
    'guest-shipping',
    'Lovelace',
    'For Ada',
    '+44 20 7946',
    'St James',
    'neighbour',
    '203.0.113.7',
    'tok_5e3c',
    'cart_77',
    'authenticate?key',
  ];

  async function shopWithCustomers(): Promise<{ shop: TestShop; orders: Array<Record<string, any>> }> {
    const shop = await newShop({ subscriptions: ['orders/create'] });
    const orders = [
      pii('ada@example.test', 7701),
      pii('ADA@example.test', 7701),
      pii('grace@example.test', 7702),
      pii('x', 0, { email: null, contact_email: null, customer: null, note: 'guest-shipping: leave it with the neighbour' }),
    ];
    for (const order of orders) await deliverAndProcess(shop, 'orders/create', order);
    return { shop, orders };
  }

  it('orders log, raw payloads, contacts, activities, deliveries, privacy rows, triggers and inbox packages hold none of it', async () => {
    const { shop, orders } = await shopWithCustomers();
    assert.ok(await contactByEmail(shop.accountId, 'ada@example.test'));
    const dataRequest = await requestPrivacy(shop, 'customers/data_request', {
      customer: { id: 7701, email: 'ada@example.test', phone: '+44 20 7946 0000' },
      orders_requested: [orders[0].id],
      data_request: { id: 9911 },
    });
    await fulfilled(dataRequest.id);
    await deliverAndProcess(shop, 'subscription_billing_attempts/failure', {
      id: 5501,
      subscription_contract_id: 5502,
      customer_id: 7701,
      error_code: 'card_declined',
      error_message: 'declined',
    });
    // A delivery still waiting for its handler keeps its body in the record.
    await harness()
      .db('commerce_webhook_deliveries')
      .insert({
        account_id: shop.accountId,
        connection_id: shop.connectionId,
        webhook_id: 'stuck-1',
        topic: 'orders/updated',
        payload: JSON.stringify(pii('ada@example.test', 7701)),
        dispatched_at: new Date(),
      });
    const before = await storedText(shop.accountId);
    for (const marker of ['ada@example.test', 'Lovelace', 'St James']) {
      assert.ok(
        Object.values(before).some((rows) => rows.includes(marker)),
        `the setup stores "${marker}"`,
      );
    }

    const request = await requestPrivacy(shop, 'shop/redact', {});
    await fulfilled(request.id);

    assertNoneOf(markers, await storedText(shop.accountId));
    assert.equal(await contactByEmail(shop.accountId, 'ada@example.test'), undefined, 'the commerce-made contacts are gone');
    assert.equal(await contactByEmail(shop.accountId, 'grace@example.test'), undefined);
    for (const order of orders) {
      const [row] = await orderLog(shop, order.id);
      assert.deepEqual([row.customer_email, row.crm_contact_id], [null, null]);
      assert.equal(row.raw_payload.total_price, '25.00', 'what is not personal stays for reporting');
    }
    const privacyRows = await harness()
      .db('commerce_compliance_requests')
      .where({ account_id: shop.accountId, connection_id: shop.connectionId });
    assert.ok(privacyRows.every((r) => r.customer_email === null && r.customer_id === null));
    const subscriptionTriggers = await harness()
      .db('workflow_trigger_outbox')
      .where({ account_id: shop.accountId })
      .whereLike('trigger', 'commerce.subscription.%');
    assert.equal(subscriptionTriggers.length, 1);
    assert.equal(subscriptionTriggers[0].payload.customer_id, null, 'subscription triggers lose the customer id');
    const orderTriggers = await harness()
      .db('workflow_trigger_outbox')
      .where({ account_id: shop.accountId })
      .whereLike('trigger', 'commerce.order.%');
    assert.ok(orderTriggers.length >= orders.length);
    assert.ok(
      orderTriggers.every((t) => t.payload.customer_email === null && t.payload.contact_id === null),
      'order triggers lose the customer and the link to their contact',
    );
    const billingItems = await harness()
      .db('inbox_items')
      .where({ account_id: shop.accountId, kind: 'commerce_subscription_billing_failed' });
    assert.equal(billingItems.length, 1);
    assert.equal(billingItems[0].body.customer_id, null, 'inbox items of the shop lose the customer id');
    const notes = await harness()
      .db('crm_contact_activities')
      .where({ account_id: shop.accountId })
      .whereLike('external_id', 'commerce:order:%');
    assert.ok(notes.every((n) => n.body === ORDER_NOTE_REDACTED));
  });

  it('a contact the account made, or one with orders in another shop, is kept with its own fields and rollups of what remains', async () => {
    const shop = await newShop();
    const other = await newShop({ account: shop.account });
    const own = await createContact(harness().db, shop.accountId, { name: 'Kept Person', email: 'kept@example.test', tags: ['vip'] });
    const ownOrder = pii('kept@example.test', 8801);
    const shared = [pii('both@example.test', 8802), pii('both@example.test', 8802, { total_price: '40.00', current_total_price: '40.00' })];
    await deliverAndProcess(shop, 'orders/create', ownOrder);
    await deliverAndProcess(shop, 'orders/create', shared[0]);
    await deliverAndProcess(other, 'orders/create', shared[1]);

    const request = await requestPrivacy(shop, 'shop/redact', {});
    await fulfilled(request.id);

    const kept = await contactByEmail(shop.accountId, 'kept@example.test');
    assert.equal(kept.id, own.id);
    assert.deepEqual(
      [kept.name, kept.tags, kept.commerce_order_count, Number(kept.commerce_total_spent_cents)],
      ['Kept Person', ['vip'], 0, 0],
    );
    const both = await contactByEmail(shop.accountId, 'both@example.test');
    assert.deepEqual(
      [both.commerce_order_count, Number(both.commerce_total_spent_cents)],
      [1, 4000],
      "only the other shop's order is left",
    );
    const [otherRow] = await orderLog(other, shared[1].id);
    assert.equal(otherRow.customer_email, 'both@example.test', 'the other shop is untouched');
    const note = await harness()
      .db('crm_contact_activities')
      .where({ account_id: shop.accountId, external_id: `commerce:order:${ownOrder.id}` })
      .first();
    assert.equal(note.body, ORDER_NOTE_REDACTED);
  });
});
