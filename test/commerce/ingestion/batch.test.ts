import assert from 'node:assert/strict';
import { ingestOrder, ingestOrders } from '../../../src/commerce/ingestion/service';
import { harness } from '../../helpers/harness';
import { contactByEmail, newShop, orderLog, orderPayload, outbox, type TestShop } from '../webhooks/receiverKit';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 10, minutes)).toISOString();
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

describe('ingestOrders (a page of orders through the shared path, set-based)', () => {
  let shop: TestShop;
  beforeEach(async () => {
    shop = await newShop();
  });
  const ingestPage = (orders: unknown[], topic: 'orders/create' | 'orders/updated' = 'orders/updated') =>
    ingestOrders(harness().db, { accountId: shop.accountId, connectionId: shop.connectionId, orders, topic });
  const notes = async (contactId: string) =>
    harness()
      .db('crm_contact_activities')
      .where({ account_id: shop.accountId, contact_id: contactId })
      .whereLike('external_id', 'commerce:order:%');

  it('a page with repeated customers: one contact per email, rollups recomputed exactly, the earliest placed order of a new customer is its first', async () => {
    const a = `repeat-a-${unique()}@example.test`;
    const b = `repeat-b-${unique()}@example.test`;
    const earlierB = orderPayload({ email: b, created_at: at(0), updated_at: at(0), current_total_price: '5.00' });
    await ingestOrder(harness().db, {
      accountId: shop.accountId,
      connectionId: shop.connectionId,
      order: earlierB,
      topic: 'orders/create',
    });

    // Listed in update order, not placement order; one of A's orders spells the email in capitals.
    const a2 = orderPayload({ email: a, created_at: at(20), updated_at: at(30), current_total_price: '20.00' });
    const a1 = orderPayload({ email: a.toUpperCase(), created_at: at(10), updated_at: at(31), current_total_price: '10.00' });
    const b2 = orderPayload({ email: b, created_at: at(15), updated_at: at(32), current_total_price: '7.50' });
    const a3 = orderPayload({ email: a, created_at: at(40), updated_at: at(40), current_total_price: '30.00' });
    const results = await ingestPage([a2, a1, b2, a3]);

    assert.deepEqual(
      results.map((r) => r.outcome),
      ['ingested', 'ingested', 'ingested', 'ingested'],
    );
    const contactA = await contactByEmail(shop.accountId, a);
    const contactB = await contactByEmail(shop.accountId, b);
    assert.equal(
      (await harness().db('crm_contacts').where({ account_id: shop.accountId }).whereRaw('lower(email) = lower(?)', [a])).length,
      1,
    );
    assert.equal(contactA.source, 'commerce');
    assert.deepEqual(
      results.map((r) => r.outcome !== 'invalid' && [r.contactId, r.firstOrder]),
      [
        [contactA.id, false],
        [contactA.id, true],
        [contactB.id, false],
        [contactA.id, false],
      ],
    );
    for (const [payload, first] of [
      [a1, true],
      [a2, false],
      [a3, false],
      [b2, false],
      [earlierB, true],
    ] as const) {
      assert.equal((await orderLog(shop, payload.id))[0].first_order, first, `first_order of order ${payload.id}`);
    }
    assert.deepEqual(
      [
        contactA.commerce_order_count,
        Number(contactA.commerce_total_spent_cents),
        contactA.commerce_first_order_id,
        contactA.commerce_first_order_at.toISOString(),
        contactA.commerce_last_order_at.toISOString(),
      ],
      [3, 6000, String(a1.id), at(10), at(40)],
    );
    assert.deepEqual(
      [contactB.commerce_order_count, Number(contactB.commerce_total_spent_cents), contactB.commerce_first_order_id],
      [2, 1250, String(earlierB.id)],
    );
    assert.equal((await notes(contactA.id)).length, 3);
    assert.equal((await notes(contactB.id)).length, 2);
  });

  it('mixed guest and known orders: guests are logged without a contact, every order gets its trigger', async () => {
    const known = orderPayload({ email: `mixed-${unique()}@example.test` });
    const guest = orderPayload({ email: null, customer: null });
    const results = await ingestPage([guest, known], 'orders/create');
    const contact = await contactByEmail(shop.accountId, known.email);
    assert.deepEqual(
      results.map((r) => r.outcome !== 'invalid' && [r.outcome, r.contactId, r.firstOrder, r.triggers]),
      [
        ['ingested', null, null, ['commerce.order.created']],
        ['ingested', contact.id, true, ['commerce.order.created']],
      ],
    );
    assert.equal((await orderLog(shop, guest.id))[0].crm_contact_id, null);
    const triggers = await outbox(shop.accountId);
    assert.deepEqual(
      triggers.map((t) => [t.payload.order_id, t.payload.contact_id, t.payload.first_order]).sort(),
      [
        [String(guest.id), null, null],
        [String(known.id), contact.id, true],
      ].sort(),
    );
  });

  it('stale updates inside a page change nothing and fire nothing; a repeated order id ends in its newest state', async () => {
    const email = `stale-${unique()}@example.test`;
    const logged = orderPayload({ email, updated_at: at(30), current_total_price: '40.00' });
    await ingestPage([logged]);
    const older = { ...logged, updated_at: at(20), current_total_price: '1.00' };
    const repeated = orderPayload({ email, updated_at: at(50), current_total_price: '9.00' });
    const repeatedOlder = { ...repeated, updated_at: at(45), current_total_price: '2.00' };
    const invalid = { id: null };
    const before = (await outbox(shop.accountId)).length;

    const results = await ingestPage([older, repeated, invalid, repeatedOlder]);
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['stale', 'ingested', 'invalid', 'stale'],
    );
    assert.deepEqual(
      results.map((r) => (r.outcome === 'invalid' ? null : r.triggers.length)),
      [0, 1, null, 0],
    );
    assert.equal((await outbox(shop.accountId)).length, before + 1);
    assert.equal(Number((await orderLog(shop, logged.id))[0].total_amount_cents), 4000);
    assert.equal(Number((await orderLog(shop, repeated.id))[0].total_amount_cents), 900);
    const contact = await contactByEmail(shop.accountId, email);
    assert.deepEqual([contact.commerce_order_count, Number(contact.commerce_total_spent_cents)], [2, 4900]);
  });

  it('a redacted order inside a page takes no personal data back and is not bridged, while the others are', async () => {
    const redactedEmail = `redacted-${unique()}@example.test`;
    const redacted = orderPayload({ email: redactedEmail, updated_at: at(1) });
    await ingestPage([redacted]);
    await harness()
      .db('commerce_orders_log')
      .where({ connection_id: shop.connectionId, order_id: String(redacted.id) })
      .update({ redacted_at: new Date(), customer_email: null, raw_payload: JSON.stringify({ id: redacted.id }), crm_contact_id: null });
    await harness().db('crm_contacts').where({ account_id: shop.accountId }).whereRaw('lower(email) = ?', [redactedEmail]).delete();

    const other = orderPayload({ email: `kept-${unique()}@example.test`, updated_at: at(5) });
    const results = await ingestPage([{ ...redacted, updated_at: at(5) }, other]);
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['ingested', 'ingested'],
    );
    const [row] = await orderLog(shop, redacted.id);
    assert.deepEqual([row.customer_email, row.crm_contact_id, row.raw_payload], [null, null, { id: redacted.id }]);
    assert.equal(await contactByEmail(shop.accountId, redactedEmail), undefined, 'the redacted customer is not recreated');
    assert.equal((await orderLog(shop, other.id))[0].crm_contact_id, (await contactByEmail(shop.accountId, other.email)).id);
  });

  describe('when the CRM bridge fails for one order of a page', () => {
    const FAULT = 'batch-fault-';
    before(async () => {
      await harness().db.raw(`create or replace function test_reject_batch_contact() returns trigger language plpgsql as $$
        begin if new.email like '${FAULT}%' then raise exception 'injected contact failure'; end if; return new; end $$`);
      await harness().db.raw(
        'create trigger test_reject_batch_contact before insert or update on crm_contacts for each row execute function test_reject_batch_contact()',
      );
    });
    after(async () => {
      await harness().db.raw('drop trigger if exists test_reject_batch_contact on crm_contacts');
      await harness().db.raw('drop function if exists test_reject_batch_contact()');
    });

    it('that order is logged with its failure recorded (row and inbox); the other orders still bridge', async () => {
      const good = `good-${unique()}@example.test`;
      const first = orderPayload({ email: good, created_at: at(1), current_total_price: '3.00' });
      const bad = orderPayload({ email: `${FAULT}${unique()}@example.test` });
      const second = orderPayload({ email: good, created_at: at(2), current_total_price: '4.00' });
      const guest = orderPayload({ email: null, customer: null });
      const results = await ingestPage([second, bad, first, guest]);

      assert.deepEqual(
        results.map((r) => r.outcome !== 'invalid' && [r.outcome, r.bridgeError]),
        [
          ['ingested', null],
          ['ingested', 'P0001: injected contact failure'],
          ['ingested', null],
          ['ingested', null],
        ],
      );
      const [badRow] = await orderLog(shop, bad.id);
      assert.ok(badRow.bridge_error.includes('injected contact failure') && badRow.bridge_failed_at instanceof Date);
      assert.equal(badRow.crm_contact_id, null);
      const contact = await contactByEmail(shop.accountId, good);
      assert.deepEqual([contact.commerce_order_count, Number(contact.commerce_total_spent_cents)], [2, 700]);
      assert.deepEqual([(await orderLog(shop, first.id))[0].first_order, (await orderLog(shop, second.id))[0].first_order], [true, false]);
      assert.equal((await notes(contact.id)).length, 2);
      const items = await harness().db('inbox_items').where({ account_id: shop.accountId, kind: 'commerce_order_bridge_failed' });
      assert.deepEqual(
        items.map((i) => i.body.order_id),
        [String(bad.id)],
      );
      assert.equal((await outbox(shop.accountId)).length, 4, "every order's trigger committed");
    });
  });
});
