import { harness } from '../../helpers/harness';
import { deliverAndProcess, eventually, orderPayload, type TestShop } from '../webhooks/receiverKit';

/** An order full of personal data, as the platform sends it. */
export function pii(email: string, customerId: number, overrides: Record<string, unknown> = {}) {
  const address = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    name: 'Ada Lovelace',
    address1: '12 St James Square',
    city: 'London',
    zip: 'SW1Y 4JH',
    phone: '+44 20 7946 0000',
    country: 'United Kingdom',
  };
  return orderPayload({
    email,
    contact_email: email,
    phone: '+44 20 7946 0000',
    browser_ip: '203.0.113.7',
    note: 'Leave it with the neighbour',
    token: 'tok_5e3c',
    cart_token: 'cart_77',
    checkout_token: 'chk_88',
    order_status_url: 'https://shop.example/orders/abc/authenticate?key=secret',
    customer: { id: customerId, email, first_name: 'Ada', last_name: 'Lovelace', phone: '+44 20 7946 0000', default_address: address },
    billing_address: address,
    shipping_address: address,
    line_items: [{ id: 1, title: 'Tea', quantity: 2, price: '12.50', properties: [{ name: 'Engraving', value: 'For Ada' }] }],
    ...overrides,
  });
}

/** Delivers a privacy topic through the receiver and answers the request row it logged. */
export async function requestPrivacy(shop: TestShop, topic: string, payload: Record<string, unknown>) {
  await deliverAndProcess(shop, topic, { shop_id: 954889, shop_domain: shop.shopDomain, ...payload });
  return harness().db('commerce_compliance_requests').where({ account_id: shop.accountId, topic }).orderBy('created_at', 'desc').first();
}

/** Waits until the request's workflow has fulfilled it. */
export async function fulfilled(requestId: string, timeoutMs = 15_000) {
  return eventually(
    () => harness().db('commerce_compliance_requests').where({ id: requestId }).first(),
    (r) => Boolean(r?.fulfilled_at),
    timeoutMs,
    `request ${requestId} fulfilled`,
  );
}

/** Every key of a JSON value, at any depth. */
export function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  }
  return into;
}
