import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import {
  contactByEmail,
  deliverAndProcess,
  deliverOk,
  newShop,
  orderLog,
  orderPayload,
  outbox,
  processed,
  type TestShop,
} from '../webhooks/receiverKit';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 10, minutes)).toISOString();

async function notes(accountId: string, orderId: string | number) {
  return harness()
    .db('crm_contact_activities')
    .where({ account_id: accountId, external_id: `commerce:order:${orderId}` });
}

describe('order ingestion through the webhook', () => {
  let shop: TestShop;
  beforeEach(async () => {
    shop = await newShop();
  });

  it('orders/create then orders/updated: one log row, contact upserted, rollups right, one activity note, triggers created and updated', async () => {
    const order = orderPayload({ total_price: '40.00', current_total_price: '40.00' });
    await deliverAndProcess(shop, 'orders/create', order);
    await deliverAndProcess(shop, 'orders/updated', { ...order, updated_at: at(5), note: 'gift wrap' });

    const rows = await orderLog(shop, order.id);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      [Number(rows[0].total_amount_cents), rows[0].currency, rows[0].last_topic, rows[0].raw_payload.note],
      [4000, 'EUR', 'orders/updated', 'gift wrap'],
    );
    const contact = await contactByEmail(shop.accountId, order.email);
    assert.equal(contact.source, 'commerce');
    assert.equal(contact.name, 'Grace Hopper');
    assert.equal(rows[0].crm_contact_id, contact.id, 'backlink');
    assert.deepEqual(
      [Number(contact.commerce_total_spent_cents), contact.commerce_order_count, contact.commerce_first_order_id],
      [4000, 1, String(order.id)],
    );
    assert.equal((await notes(shop.accountId, order.id)).length, 1);
    const triggers = await outbox(shop.accountId);
    assert.deepEqual(
      triggers.map((t) => t.trigger),
      ['commerce.order.created', 'commerce.order.updated'],
    );
    assert.equal(triggers[0].payload.first_order, true);
    assert.equal(triggers[0].payload.contact_id, contact.id);
  });

  it('the first-order flag reflects the contact before the order is counted: true for the first, false for the second', async () => {
    const email = `repeat-${Date.now()}@example.test`;
    const first = orderPayload({ email, created_at: at(0), updated_at: at(0) });
    const second = orderPayload({ email, created_at: at(30), updated_at: at(30), total_price: '10.00', current_total_price: '10.00' });
    await deliverAndProcess(shop, 'orders/create', first);
    await deliverAndProcess(shop, 'orders/create', second);
    const created = (await outbox(shop.accountId)).filter((t) => t.trigger === 'commerce.order.created');
    assert.deepEqual(
      created.map((t) => [t.payload.order_id, t.payload.first_order]),
      [
        [String(first.id), true],
        [String(second.id), false],
      ],
    );
    const contact = await contactByEmail(shop.accountId, email);
    assert.deepEqual([contact.commerce_order_count, Number(contact.commerce_total_spent_cents)], [2, 3500]);
    assert.equal(contact.commerce_first_order_at.toISOString(), at(0));
    assert.equal(contact.commerce_last_order_at.toISOString(), at(30));
  });

  it('an update that arrives before its creation ends in the newest state; the late creation regresses nothing', async () => {
    const order = orderPayload({ total_price: '30.00', current_total_price: '30.00' });
    await deliverAndProcess(shop, 'orders/updated', { ...order, updated_at: at(10), current_total_price: '20.00', tags: 'edited' });
    await deliverAndProcess(shop, 'orders/create', order);

    const [row] = await orderLog(shop, order.id);
    assert.deepEqual([Number(row.total_amount_cents), row.raw_payload.tags, row.order_updated_at.toISOString()], [2000, 'edited', at(10)]);
    const contact = await contactByEmail(shop.accountId, order.email);
    assert.deepEqual([contact.commerce_order_count, Number(contact.commerce_total_spent_cents)], [1, 2000]);
    const triggers = await outbox(shop.accountId);
    assert.deepEqual(triggers.map((t) => t.trigger).sort(), ['commerce.order.created', 'commerce.order.updated']);
    assert.equal(
      triggers.find((t) => t.trigger === 'commerce.order.created')!.payload.first_order,
      true,
      'the late creation still reports the first order',
    );
  });

  it('two updates delivered in reverse order end in the newer state, and the stale one fires nothing', async () => {
    const order = orderPayload();
    await deliverAndProcess(shop, 'orders/create', order);
    await deliverAndProcess(shop, 'orders/updated', { ...order, updated_at: at(20), current_total_price: '15.00' });
    await deliverAndProcess(shop, 'orders/updated', { ...order, updated_at: at(10), current_total_price: '99.00' });
    const [row] = await orderLog(shop, order.id);
    assert.equal(Number(row.total_amount_cents), 1500);
    assert.equal(Number((await contactByEmail(shop.accountId, order.email)).commerce_total_spent_cents), 1500);
    assert.equal((await outbox(shop.accountId)).filter((t) => t.trigger === 'commerce.order.updated').length, 1);
  });

  it('several deliveries of one order fired at once end in the newest state with exact rollups', async () => {
    const order = orderPayload();
    const versions = [
      { topic: 'orders/create', body: order },
      ...[1, 2, 3, 4].map((m) => ({ topic: 'orders/updated', body: { ...order, updated_at: at(m), current_total_price: `${10 + m}.00` } })),
    ];
    const ids = await Promise.all(versions.reverse().map((v) => deliverOk(shop, v.topic, v.body)));
    for (const id of ids) await processed(shop, id);
    const rows = await orderLog(shop, order.id);
    assert.equal(rows.length, 1);
    assert.equal(Number(rows[0].total_amount_cents), 1400);
    const contact = await contactByEmail(shop.accountId, order.email);
    assert.deepEqual([contact.commerce_order_count, Number(contact.commerce_total_spent_cents)], [1, 1400]);
    assert.equal((await notes(shop.accountId, order.id)).length, 1);
    assert.equal((await outbox(shop.accountId)).filter((t) => t.trigger === 'commerce.order.created').length, 1);
  });

  it('a guest order (no email) is logged without a contact, and its triggers still fire', async () => {
    const order = orderPayload({ email: null, customer: null });
    await deliverAndProcess(shop, 'orders/create', order);
    await deliverAndProcess(shop, 'orders/updated', { ...order, updated_at: at(3) });
    const [row] = await orderLog(shop, order.id);
    assert.equal(row.crm_contact_id, null);
    assert.equal(row.customer_email, null);
    assert.equal(Number((await harness().db('crm_contacts').where({ account_id: shop.accountId }).count({ n: '*' }))[0].n), 0);
    const triggers = await outbox(shop.accountId);
    assert.deepEqual(
      triggers.map((t) => [t.trigger, t.payload.contact_id]),
      [
        ['commerce.order.created', null],
        ['commerce.order.updated', null],
      ],
    );
  });

  it("a refund lowers the contact's total spent (net of refunds, with or without current_total_price)", async () => {
    const email = `refund-${Date.now()}@example.test`;
    const a = orderPayload({ email, total_price: '50.00', current_total_price: '50.00' });
    const b = orderPayload({ email, total_price: '20.00', current_total_price: undefined });
    await deliverAndProcess(shop, 'orders/create', a);
    await deliverAndProcess(shop, 'orders/create', b);
    assert.equal(Number((await contactByEmail(shop.accountId, email)).commerce_total_spent_cents), 7000);

    await deliverAndProcess(shop, 'orders/updated', {
      ...a,
      updated_at: at(40),
      current_total_price: '35.00',
      refunds: [{ transactions: [{ kind: 'refund', status: 'success', amount: '15.00' }] }],
    });
    await deliverAndProcess(shop, 'orders/updated', {
      ...b,
      updated_at: at(40),
      refunds: [
        {
          transactions: [
            { kind: 'refund', status: 'success', amount: '5.00' },
            { kind: 'refund', status: 'failure', amount: '5.00' },
          ],
        },
      ],
    });
    const contact = await contactByEmail(shop.accountId, email);
    assert.deepEqual([contact.commerce_order_count, Number(contact.commerce_total_spent_cents)], [2, 3500 + 1500]);
  });

  it("an order whose email changes moves to the new contact, and both contacts' rollups are recomputed", async () => {
    const order = orderPayload({ total_price: '12.00', current_total_price: '12.00' });
    await deliverAndProcess(shop, 'orders/create', order);
    const moved = `moved-${Date.now()}@example.test`;
    await deliverAndProcess(shop, 'orders/updated', { ...order, email: moved, updated_at: at(2) });
    const [before, after] = [await contactByEmail(shop.accountId, order.email), await contactByEmail(shop.accountId, moved)];
    assert.deepEqual(
      [before.commerce_order_count, Number(before.commerce_total_spent_cents), before.commerce_first_order_id],
      [0, 0, null],
    );
    assert.deepEqual([after.commerce_order_count, Number(after.commerce_total_spent_cents)], [1, 1200]);
    assert.equal((await orderLog(shop, order.id))[0].crm_contact_id, after.id);
  });
});
