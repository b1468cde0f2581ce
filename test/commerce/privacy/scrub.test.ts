import assert from 'node:assert/strict';
import { orderIdsOf, scrubOrderPayload, withoutSecrets } from '../../../src/commerce/privacy/scrub';

const order = {
  id: 820982911946154500,
  name: '#1001',
  email: 'jon@example.test',
  total_price: '199.65',
  currency: 'EUR',
  token: 't',
  order_status_url: 'https://x/y?key=z',
  customer: { id: 1, email: 'jon@example.test', first_name: 'Jon' },
  shipping_address: { name: 'Jon Snow', address1: 'The Wall' },
  line_items: [{ id: 1, name: 'Cloak', price: '10.00', properties: [{ name: 'Monogram', value: 'JS' }] }],
  fulfillments: [{ id: 9, tracking_number: '1Z', destination: { address1: 'The Wall' } }],
  refunds: [{ id: 5, transactions: [{ amount: '5.00', kind: 'refund', status: 'success' }] }],
};

describe('privacy: order payload scrubbing', () => {
  it('removes personal data at every depth and keeps ids, names of things, totals and refunds', () => {
    assert.deepEqual(scrubOrderPayload(order), {
      id: 820982911946154500,
      name: '#1001',
      total_price: '199.65',
      currency: 'EUR',
      line_items: [{ id: 1, name: 'Cloak', price: '10.00' }],
      fulfillments: [{ id: 9 }],
      refunds: [{ id: 5, transactions: [{ amount: '5.00', kind: 'refund', status: 'success' }] }],
    });
  });

  it('scrubbing is idempotent and leaves its input unchanged', () => {
    const copy = structuredClone(order);
    const once = scrubOrderPayload(order);
    assert.deepEqual(scrubOrderPayload(once), once);
    assert.deepEqual(order, copy);
  });

  it("a data package keeps the customer's data but never the order's bearer secrets", () => {
    const packaged = withoutSecrets(order) as Record<string, unknown>;
    assert.equal(packaged.email, 'jon@example.test');
    assert.equal('token' in packaged, false);
    assert.equal('order_status_url' in packaged, false);
  });

  it('order ids listed in a privacy payload are read as text; anything else is ignored', () => {
    assert.deepEqual(orderIdsOf([299938, '280263', null, { id: 1 }, 1.5, 'bad id!']), ['299938', '280263']);
    assert.deepEqual(orderIdsOf(undefined), []);
  });
});
