import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { commerceComplianceSweepContract } from '../../../workflows/commerceComplianceSweep.contract';
import { runSweep } from '../sweeps/sweepKit';
import { deliverAndProcess, newShop, orderPayload, type TestShop } from '../webhooks/receiverKit';
import { fulfilled, requestPrivacy } from './privacyKit';

/** A customer whose every detail is unique to the run, so finding one anywhere in the database means it was kept. */
function customer() {
  const tag = randomBytes(4).toString('hex');
  const id = 7_100_000_000_000 + randomInt(1_000_000_000);
  const phone = `+44 20 7946 ${randomInt(1000, 10000)}`;
  const address = {
    first_name: `Ada${tag}`,
    last_name: `Lovelace${tag}`,
    name: `Ada${tag} Lovelace${tag}`,
    address1: `${tag} St James Square`,
    city: 'London',
    zip: 'SW1Y 4JH',
    phone,
    country: 'United Kingdom',
  };
  const email = `ada-${tag}@example.test`;
  return {
    id,
    email,
    phone,
    markers: [email, phone, address.first_name, address.last_name, address.address1, `note-${tag}`, `Engraving ${tag}`, String(id)],
    order: (overrides: Record<string, unknown> = {}) =>
      orderPayload({
        email,
        contact_email: email,
        phone,
        note: `note-${tag}: leave it with the neighbour`,
        customer: { id, email, first_name: address.first_name, last_name: address.last_name, phone, default_address: address },
        billing_address: address,
        shipping_address: address,
        line_items: [{ id: 1, title: 'Tea', quantity: 2, price: '12.50', properties: [{ name: 'Engraving', value: `Engraving ${tag}` }] }],
        ...overrides,
      }),
  };
}

/** Each public table, each row as Postgres prints it (every column), for a plain-text search. */
async function everyRow(): Promise<Map<string, string[]>> {
  const { db } = harness();
  const tables = await db('information_schema.tables').where({ table_schema: 'public', table_type: 'BASE TABLE' }).pluck('table_name');
  const out = new Map<string, string[]>();
  for (const table of tables) {
    const rows = await db.select(db.raw('t::text as row')).from(db.raw('?? as t', [table]));
    out.set(
      table,
      rows.map((r: { row: string }) => r.row.toLowerCase()),
    );
  }
  return out;
}

function holders(rows: Map<string, string[]>, marker: string): string[] {
  const needle = marker.toLowerCase();
  return [...rows].filter(([, texts]) => texts.some((t) => t.includes(needle))).map(([table]) => table);
}

/** A data request logged 31 days ago whose fulfilment never started: the sweep alerts on it and packages it. */
async function overdueDataRequest(shop: TestShop, who: ReturnType<typeof customer>): Promise<string> {
  const { db } = harness();
  const [row] = await db('commerce_compliance_requests')
    .insert({
      account_id: shop.accountId,
      connection_id: shop.connectionId,
      topic: 'customers/data_request',
      shop_domain: shop.shopDomain,
      customer_id: String(who.id),
      customer_email: who.email,
      raw_payload: JSON.stringify({ customer: { id: who.id, email: who.email, phone: who.phone }, orders_requested: [] }),
      created_at: db.raw(`now() - interval '31 days'`),
    })
    .returning('id');
  return row.id;
}

/**
 * Rule: customers/redact anonymises or disconnects every piece of the customer's data the service stored (doc3).
 * After it, no table holds the customer's email, phone, name, address, typed text or platform customer id. What stays
 * is the record that the requests were made and fulfilled — request ids, topic, shop, times and the order ids the
 * platform listed — and the orders' non-personal fields (ids, numbers, totals, line items) for reporting.
 */
describe("privacy: customers/redact leaves nothing of the customer's data", () => {
  it('after a data request, subscription events, an overdue alert and a redact, no table of the database holds the customer', async () => {
    const shop = await newShop();
    const ada = customer();
    const other = customer();
    const orders = [ada.order(), ada.order({ email: ada.email.toUpperCase() })];
    for (const order of [...orders, other.order()]) await deliverAndProcess(shop, 'orders/create', order);
    await deliverAndProcess(shop, 'subscription_contracts/create', {
      id: 880_001,
      admin_graphql_api_id: 'gid://commerce/SubscriptionContract/880001',
      customer_id: ada.id,
      status: 'active',
      currency_code: 'EUR',
      billing_policy: { interval: 'month', interval_count: 1 },
      revision_id: 1,
    });
    await deliverAndProcess(shop, 'subscription_billing_attempts/failure', {
      id: 880_002,
      subscription_contract_id: 880_001,
      customer_id: ada.id,
      error_code: 'card_declined',
      error_message: 'Card was declined',
    });
    const dataRequest = await requestPrivacy(shop, 'customers/data_request', {
      customer: { id: ada.id, email: ada.email, phone: ada.phone },
      orders_requested: [orders[0].id],
      data_request: { id: 9912 },
    });
    await fulfilled(dataRequest.id);
    const overdue = await overdueDataRequest(shop, ada);
    await runSweep(commerceComplianceSweepContract);
    await fulfilled(overdue);

    const before = await everyRow();
    for (const marker of ada.markers) assert.ok(holders(before, marker).length > 0, `the setup stores "${marker}"`);
    const inboxBefore = await call('GET', '/api/inbox?limit=100', { token: shop.account.ownerToken });
    assert.ok(inboxBefore.text.includes(ada.email), 'the data package is in the inbox before the redact');

    const redact = await requestPrivacy(shop, 'customers/redact', {
      customer: { id: ada.id, email: ada.email, phone: ada.phone },
      orders_to_redact: orders.map((o) => o.id),
    });
    await fulfilled(redact.id);
    await harness().client.workflow.getHandle(`commerce-privacy:${redact.id}`).result();

    const after = await everyRow();
    const left = ada.markers.map((m) => [m, holders(after, m)] as const).filter(([, tables]) => tables.length > 0);
    assert.deepEqual(left, [], 'no table holds any of the customer');
    for (const marker of other.markers) assert.ok(holders(after, marker).length > 0, `another customer's "${marker}" is kept`);

    const inbox = await call('GET', '/api/inbox?limit=100', { token: shop.account.ownerToken });
    assert.equal(inbox.status, 200);
    for (const marker of ada.markers)
      assert.ok(!inbox.text.toLowerCase().includes(marker.toLowerCase()), `GET /api/inbox shows no "${marker}"`);
    const packages = inbox.body.data.filter((i: { kind: string }) => i.kind === 'commerce_privacy_data_request');
    assert.deepEqual(
      packages.map((i: { body: { compliance_request_id: string } }) => i.body.compliance_request_id).sort(),
      [dataRequest.id, overdue].sort(),
    );
    assert.ok(
      packages.every((i: { body: { redacted: boolean } }) => i.body.redacted === true),
      'the packages say they were emptied',
    );

    const requests = await harness().db('commerce_compliance_requests').where({ account_id: shop.accountId }).orderBy('created_at');
    assert.ok(
      requests.every((r) => r.fulfilled_at instanceof Date),
      'every request is still recorded as fulfilled',
    );
    const redacted = requests.find((r) => r.id === redact.id);
    assert.deepEqual(
      [redacted.topic, redacted.shop_domain, redacted.raw_payload.orders_to_redact],
      ['customers/redact', shop.shopDomain, orders.map((o) => o.id)],
      'the request keeps what was asked: the topic, the shop and the order ids',
    );
  });
});
