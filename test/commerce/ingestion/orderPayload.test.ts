import assert from 'node:assert/strict';
import { readOrder, toCents } from '../../../src/commerce/ingestion/orderPayload';

/** What every order carries (Admin API 2025-04 order webhook payload), so each case varies only what it tests. */
const base = { id: 1, currency: 'EUR', created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z', total_price: '0.00' };

describe('reading the platform order payload', () => {
  it('amounts become cents, rounded half away from zero; anything not a decimal is null', () => {
    const cases: Array<[unknown, number | null]> = [
      ['12.50', 1250],
      ['12.5', 1250],
      ['0.005', 1],
      ['7', 700],
      [19.99, 1999],
      ['-3.10', -310],
      ['1.004', 100],
      ['12,50', null],
      ['', null],
      ['1e3', null],
      [null, null],
      [Number.NaN, null],
      ['99999999999999999', null],
    ];
    for (const [input, cents] of cases) assert.equal(toCents(input), cents, `toCents(${JSON.stringify(input)})`);
  });

  it('the total is current_total_price when present, else total_price less successful refunds, never below zero', () => {
    const total = (p: Record<string, unknown>) => {
      const r = readOrder({ ...base, ...p });
      assert.ok(r.ok);
      return r.order.totalCents;
    };
    assert.equal(total({ total_price: '50.00', current_total_price: '35.00' }), 3500);
    assert.equal(
      total({
        total_price: '50.00',
        refunds: [
          {
            transactions: [
              { kind: 'refund', status: 'success', amount: '20.00' },
              { kind: 'refund', status: 'pending', amount: '9' },
              { kind: 'sale', amount: '1' },
            ],
          },
        ],
      }),
      3000,
    );
    assert.equal(total({ total_price: '5.00', refunds: [{ transactions: [{ kind: 'refund', amount: '8.00' }] }] }), 0);
    assert.equal(total({ total_price: '5.00', current_total_price: null }), 500);
  });

  it('the email falls back to contact_email and customer.email; blank means a guest order', () => {
    const email = (p: Record<string, unknown>) => {
      const r = readOrder({ ...base, ...p });
      assert.ok(r.ok);
      return r.order.email;
    };
    assert.equal(email({ email: ' a@example.test ' }), 'a@example.test');
    assert.equal(email({ email: '', contact_email: 'b@example.test' }), 'b@example.test');
    assert.equal(email({ customer: { email: 'c@example.test' } }), 'c@example.test');
    assert.equal(email({ email: '  ' }), null);
  });

  it('the order version is its updated_at, read with its offset', () => {
    const r = readOrder({ ...base, id: '820982911946154508', updated_at: '2026-11-01T10:00:00-05:00', name: '#1001' });
    assert.ok(r.ok);
    assert.deepEqual(
      [r.order.orderId, r.order.orderNumber, r.order.updatedAt.toISOString()],
      ['820982911946154508', '#1001', '2026-11-01T15:00:00.000Z'],
    );
  });

  it('an order needs an id, a currency code, created_at and updated_at date-times and a decimal total', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ id: 'abc' }, /currency/],
      [{ ...base, id: undefined }, /id/],
      [{ ...base, id: 0 }, /id/],
      [{ ...base, id: 1.5 }, /id/],
      [{ ...base, id: 'has spaces' }, /id/],
      [{ ...base, currency: undefined }, /currency/],
      [{ ...base, currency: 'euro' }, /currency/],
      [{ ...base, currency: 'eur' }, /currency/],
      [{ ...base, created_at: undefined }, /created_at/],
      [{ ...base, updated_at: undefined }, /updated_at/],
      [{ ...base, updated_at: 'yesterday' }, /updated_at/],
      [{ ...base, updated_at: '2026-11-01' }, /updated_at/],
      [{ ...base, created_at: 1_700_000_000 }, /created_at/],
      [{ ...base, total_price: undefined }, /total/],
      [{ ...base, total_price: 'lots' }, /total/],
      [{ ...base, current_total_price: 'lots' }, /total/],
      [[], /object/],
      [null, /object/],
    ];
    for (const [payload, reason] of cases) {
      const r = readOrder(payload);
      assert.equal(r.ok, false, JSON.stringify(payload));
      assert.match(r.ok ? '' : r.reason, reason, JSON.stringify(payload));
    }
    assert.equal(readOrder(base).ok, true);
  });

  it('an order is never dated after it was received: created_at and updated_at are clamped to the receipt', () => {
    const receivedAt = new Date('2026-11-02T12:00:00Z');
    const future = readOrder({ ...base, created_at: '2026-11-03T09:00:00Z', updated_at: '2026-11-03T10:00:00Z' }, receivedAt);
    assert.ok(future.ok);
    assert.deepEqual(
      [future.order.createdAt.toISOString(), future.order.updatedAt.toISOString()],
      [receivedAt.toISOString(), receivedAt.toISOString()],
    );
    const past = readOrder(base, receivedAt);
    assert.ok(past.ok);
    assert.equal(past.order.updatedAt.toISOString(), '2026-11-01T10:00:00.000Z', 'an order stamped before its receipt keeps its stamp');
  });
});
