import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SHOP, installedSimulator, type Installed } from '../../sandbox/commerce/fixtures';

/** Every JSON number or string found under a key named `id` or ending in `_id`, with its path. */
function idsOf(value: unknown, path = '$', out: Array<{ path: string; value: unknown }> = []) {
  if (Array.isArray(value)) value.forEach((v, i) => idsOf(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const isId = (k === 'id' || k.endsWith('_id')) && k !== 'admin_graphql_api_id'; // the GraphQL id is a gid:// string
      if (isId && (typeof v === 'number' || typeof v === 'string')) out.push({ path: `${path}.${k}`, value: v });
      idsOf(v, `${path}.${k}`, out);
    }
  }
  return out;
}

function assertIntegerIds(json: unknown, what: string): void {
  const ids = idsOf(json);
  assert.ok(ids.length > 0, `${what} carries ids`);
  for (const { path, value } of ids) {
    assert.equal(typeof value, 'number', `${what} ${path} is a JSON integer like the platform's, not ${JSON.stringify(value)}`);
    assert.ok(Number.isSafeInteger(value), `${what} ${path} stays in the safe integer range`);
  }
}

/** Rule: the simulator serves the platform's shapes; the platform's ids (shop, order, line item, customer, webhook) are integers. */
describe('commerce simulator: ids are JSON integers, as the platform sends them', () => {
  let s: Installed;
  before(async () => {
    s = await installedSimulator();
    s.sim.addOrders(SHOP, 6);
  });
  after(() => s.sim.stop());

  it('shop, orders (with customers and line items), one order, products, collections and webhooks', async () => {
    assertIntegerIds(await (await s.admin('/shop.json')).json(), 'GET shop.json');
    const listing = (await (await s.admin('/orders.json?status=any')).json()) as { orders: Array<{ id: number; customer: unknown }> };
    assertIntegerIds(listing, 'GET orders.json');
    assert.ok(
      listing.orders.some((o) => o.customer),
      'the listing has customers',
    );
    assertIntegerIds(await (await s.admin(`/orders/${listing.orders[0].id}.json`)).json(), 'GET orders/{id}.json');
    assertIntegerIds(await (await s.admin('/products.json')).json(), 'GET products.json');
    assertIntegerIds(await (await s.admin('/custom_collections.json')).json(), 'GET custom_collections.json');
    const created = (await (
      await s.admin('/webhooks.json', {
        method: 'POST',
        body: JSON.stringify({ webhook: { topic: 'orders/create', address: 'https://app.example/hook' } }),
      })
    ).json()) as { webhook: { id: number } };
    assertIntegerIds(created, 'POST webhooks.json');
    assertIntegerIds(await (await s.admin(`/webhooks/${created.webhook.id}.json`)).json(), 'GET webhooks/{id}.json');
    assertIntegerIds(await (await s.admin('/webhooks.json')).json(), 'GET webhooks.json');
  });

  it('a delivered order and the app/uninstalled shop record carry integer ids on the wire', async () => {
    const bodies: string[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const address = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const [order] = s.sim.addOrders(SHOP, [{ email: 'wire@example.test' }]);
      await s.sim.deliver(SHOP, 'orders/updated', order, { address });
      await s.admin('/webhooks.json', { method: 'POST', body: JSON.stringify({ webhook: { topic: 'app/uninstalled', address } }) });
      await s.sim.uninstall(SHOP);
      assert.equal(bodies.length, 2);
      assertIntegerIds(JSON.parse(bodies[0]), 'orders/updated delivery');
      assertIntegerIds(JSON.parse(bodies[1]), 'app/uninstalled delivery');
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
