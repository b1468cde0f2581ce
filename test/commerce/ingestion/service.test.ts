import assert from 'node:assert/strict';
import { ingestOrder } from '../../../src/commerce/ingestion/service';
import { harness } from '../../helpers/harness';
import { contactByEmail, newShop, orderLog, orderPayload, outbox, type TestShop } from '../webhooks/receiverKit';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 10, minutes)).toISOString();

/** Fisher–Yates with a fixed seed: a scrambled but reproducible arrival order. */
function scrambled<T>(items: T[], seed = 7): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('ingestOrder (the path the webhook and the backfill share)', () => {
  let shop: TestShop;
  beforeEach(async () => {
    shop = await newShop();
  });
  const ingest = (order: unknown, topic: 'orders/create' | 'orders/updated') =>
    ingestOrder(harness().db, { accountId: shop.accountId, connectionId: shop.connectionId, order, topic });

  it("calls racing each other in scrambled order end in each order's newest state with exact rollups", async () => {
    const email = `race-${Date.now()}@example.test`;
    const a = orderPayload({ email, created_at: at(0), updated_at: at(0) });
    const b = orderPayload({ email, created_at: at(1), updated_at: at(1) });
    const versions = [a, b].flatMap((o) => [
      { order: o, topic: 'orders/create' as const },
      ...[2, 3, 4, 5].map((m) => ({
        order: { ...o, updated_at: at(m), current_total_price: `${m}.00` },
        topic: 'orders/updated' as const,
      })),
    ]);
    const results = await Promise.all(scrambled(versions).map((v) => ingest(v.order, v.topic)));
    assert.ok(results.every((r) => r.outcome === 'ingested' || r.outcome === 'stale'));
    for (const o of [a, b]) {
      const rows = await orderLog(shop, o.id);
      assert.equal(rows.length, 1);
      assert.deepEqual([Number(rows[0].total_amount_cents), rows[0].order_updated_at.toISOString()], [500, at(5)]);
    }
    const contact = await contactByEmail(shop.accountId, email);
    assert.deepEqual(
      [contact.commerce_order_count, Number(contact.commerce_total_spent_cents), contact.commerce_first_order_id],
      [2, 1000, String(a.id)],
    );
    const created = (await outbox(shop.accountId)).filter((t) => t.trigger === 'commerce.order.created');
    assert.equal(created.length, 2);
    assert.equal(created.filter((t) => t.payload.first_order === true).length, 1, 'exactly one of the two is the first order');
  });

  it('the backfill (orders/updated) writes the same row as the webhook path and never fires commerce.order.created', async () => {
    const order = orderPayload();
    const result = await ingest(order, 'orders/updated');
    assert.equal(result.outcome, 'ingested');
    const again = await ingest(order, 'orders/updated');
    assert.deepEqual(again.outcome === 'ingested' && again.triggers, [], 'the same version fires nothing twice');
    const [row] = await orderLog(shop, order.id);
    assert.deepEqual(
      [row.order_id, Number(row.total_amount_cents), row.customer_email, row.first_order],
      [String(order.id), 2500, order.email, true],
    );
    assert.deepEqual(
      (await outbox(shop.accountId)).map((t) => t.trigger),
      ['commerce.order.updated'],
    );
  });

  it('a payload without an id or a decimal total answers invalid and writes nothing', async () => {
    for (const bad of [
      { email: 'x@example.test' },
      orderPayload({ current_total_price: undefined, total_price: 'lots' }),
      'not an object',
    ]) {
      const result = await ingest(bad, 'orders/create');
      assert.equal(result.outcome, 'invalid');
    }
    assert.equal((await harness().db('commerce_orders_log').where({ connection_id: shop.connectionId })).length, 0);
  });

  describe('when the CRM bridge fails', () => {
    const FAULT = 'bridge-fault-';
    before(async () => {
      // A real database failure inside the bridge: contacts with this email prefix cannot be written.
      await harness().db.raw(`create or replace function test_reject_contact() returns trigger language plpgsql as $$
        begin if new.email like '${FAULT}%' then raise exception 'injected contact failure'; end if; return new; end $$`);
      await harness().db.raw(
        'create trigger test_reject_contact before insert or update on crm_contacts for each row execute function test_reject_contact()',
      );
    });
    after(async () => {
      await harness().db.raw('drop trigger if exists test_reject_contact on crm_contacts');
      await harness().db.raw('drop function if exists test_reject_contact()');
    });

    it('the error is swallowed: the order is logged, its triggers written, the failure recorded on the row and in the inbox', async () => {
      const order = orderPayload({ email: `${FAULT}${Date.now()}@example.test` });
      const result = await ingest(order, 'orders/create');
      assert.equal(result.outcome, 'ingested');
      assert.ok(result.outcome === 'ingested' && result.bridgeError === 'P0001: injected contact failure', JSON.stringify(result));
      const [row] = await orderLog(shop, order.id);
      assert.equal(row.crm_contact_id, null);
      assert.ok(row.bridge_error.includes('injected contact failure') && row.bridge_failed_at instanceof Date);
      assert.deepEqual(
        (await outbox(shop.accountId)).map((t) => t.trigger),
        ['commerce.order.created'],
      );
      assert.equal(await contactByEmail(shop.accountId, order.email), undefined, 'the bridge was rolled back as a whole');
      const items = await harness().db('inbox_items').where({ account_id: shop.accountId, kind: 'commerce_order_bridge_failed' });
      assert.equal(items.length, 1);
      assert.equal(items[0].body.order_id, String(order.id));

      const next = orderPayload({ email: `${FAULT}${Date.now()}-2@example.test` });
      await ingest(next, 'orders/create');
      assert.equal(
        (await harness().db('inbox_items').where({ account_id: shop.accountId, kind: 'commerce_order_bridge_failed' })).length,
        1,
        'one open item per shop',
      );
    });

    it("a later update that bridges clears the recorded error and counts the order as the contact's first", async () => {
      const order = orderPayload({ email: `${FAULT}${Date.now()}@example.test` });
      await ingest(order, 'orders/create');
      const fixed = { ...order, email: `fixed-${Date.now()}@example.test`, updated_at: at(9) };
      await ingest(fixed, 'orders/updated');
      const [row] = await orderLog(shop, order.id);
      assert.deepEqual([row.bridge_error, row.bridge_failed_at, row.first_order], [null, null, true]);
      assert.equal(row.crm_contact_id, (await contactByEmail(shop.accountId, fixed.email)).id);
    });
  });
});
