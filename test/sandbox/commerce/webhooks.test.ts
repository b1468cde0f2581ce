import assert from 'node:assert/strict';
import { SHOP, installedSimulator, type Installed } from './fixtures';

interface Webhook {
  id: number;
  topic: string;
  address: string;
  format: string;
  api_version: string;
}

describe('commerce simulator: webhook subscriptions', () => {
  let s: Installed;
  beforeEach(async () => {
    s = await installedSimulator();
  });
  afterEach(() => s.sim.stop());

  const create = (topic: string, address = 'https://app.example/api/webhooks/commerce') =>
    s.admin('/webhooks.json', { method: 'POST', body: JSON.stringify({ webhook: { topic, address, format: 'json' } }) });

  it('creates, lists and deletes subscriptions', async () => {
    const created = await create('orders/create');
    assert.equal(created.status, 201);
    const { webhook } = (await created.json()) as { webhook: Webhook };
    assert.ok(Number.isSafeInteger(webhook.id), 'an integer id');
    assert.deepEqual(
      [webhook.topic, webhook.address, webhook.format, webhook.api_version],
      ['orders/create', 'https://app.example/api/webhooks/commerce', 'json', '2025-04'],
    );
    await create('app/uninstalled');
    const list = (await (await s.admin('/webhooks.json')).json()) as { webhooks: Webhook[] };
    assert.deepEqual(list.webhooks.map((w) => w.topic).sort(), ['app/uninstalled', 'orders/create']);
    assert.deepEqual(
      s.sim.webhooks(SHOP).map((w) => w.id),
      list.webhooks.map((w) => w.id),
    );
    const filtered = (await (await s.admin('/webhooks.json?topic=orders/create')).json()) as { webhooks: Webhook[] };
    assert.deepEqual(
      filtered.webhooks.map((w) => w.id),
      [webhook.id],
    );
    const deleted = await s.admin(`/webhooks/${webhook.id}.json`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.deepEqual(
      s.sim.webhooks(SHOP).map((w) => w.topic),
      ['app/uninstalled'],
    );
    assert.equal((await s.admin(`/webhooks/${webhook.id}.json`, { method: 'DELETE' })).status, 404);
  });

  it('the same topic and address twice, an unknown topic or a compliance topic answer 422', async () => {
    assert.equal((await create('orders/updated')).status, 201);
    assert.equal((await create('orders/updated')).status, 422);
    assert.equal((await create('orders/exploded')).status, 422);
    const compliance = await create('customers/redact');
    assert.equal(compliance.status, 422);
    assert.ok(((await compliance.json()) as { errors: { topic: string[] } }).errors.topic[0].includes('app settings'));
    assert.equal((await create('products/update', 'not a url')).status, 422);
  });

  it('an address can be moved with PUT', async () => {
    const { webhook } = (await (await create('products/update')).json()) as { webhook: Webhook };
    const res = await s.admin(`/webhooks/${webhook.id}.json`, {
      method: 'PUT',
      body: JSON.stringify({ webhook: { address: 'https://new.example/hook' } }),
    });
    assert.equal(res.status, 200);
    assert.equal(s.sim.webhooks(SHOP)[0].address, 'https://new.example/hook');
  });

  it('uninstall revokes the token and drops the subscriptions', async () => {
    await create('orders/create');
    assert.equal(await s.sim.uninstall(SHOP), undefined, 'no app/uninstalled subscription, nothing delivered');
    assert.equal((await s.admin('/shop.json')).status, 401);
    assert.deepEqual(s.sim.webhooks(SHOP), []);
  });
});
