import assert from 'node:assert/strict';
import { readOrder, toCents } from '../../../src/commerce/ingestion/orderPayload';

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
      const r = readOrder({ id: 1, ...p });
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
    assert.equal(total({}), 0);
  });

  it('the email falls back to contact_email and customer.email; blank means a guest order', () => {
    const email = (p: Record<string, unknown>) => {
      const r = readOrder({ id: 1, ...p });
      assert.ok(r.ok);
      return r.order.email;
    };
    assert.equal(email({ email: ' a@example.test ' }), 'a@example.test');
    assert.equal(email({ email: '', contact_email: 'b@example.test' }), 'b@example.test');
    assert.equal(email({ customer: { email: 'c@example.test' } }), 'c@example.test');
    assert.equal(email({ email: '  ' }), null);
  });

  it('the order version is updated_at, else created_at; an order needs a usable id', () => {
    const r = readOrder({ id: '820982911946154508', created_at: '2026-11-01T10:00:00-05:00', name: '#1001' });
    assert.ok(r.ok);
    assert.deepEqual(
      [r.order.orderId, r.order.orderNumber, r.order.updatedAt?.toISOString()],
      ['820982911946154508', '#1001', '2026-11-01T15:00:00.000Z'],
    );
    for (const bad of [{}, { id: 0 }, { id: 1.5 }, { id: 'has spaces' }, [], null]) assert.equal(readOrder(bad).ok, false);
  });
});
