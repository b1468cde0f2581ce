import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unreachableTemporal } from '../../helpers/unreachableTemporal';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { createApp } from '../../../src/app/app';
import { commerceShopWorkflowId } from '../../../workflows/commerceShop.contract';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import {
  contactByEmail,
  deliver,
  deliverOk,
  deliveryRecords,
  newShop,
  orderLog,
  orderPayload,
  processed,
  sign,
  type TestShop,
} from './receiverKit';

/** How many deliveries the shop's workflow was handed (the counts of the `deliveries` signals of its current run). */
async function handedOver(shop: TestShop): Promise<number> {
  const history = await harness().client.workflow.getHandle(commerceShopWorkflowId(shop.connectionId)).fetchHistory();
  return (history.events ?? [])
    .map((e) => e.workflowExecutionSignaledEventAttributes)
    .filter((a) => a?.signalName === 'deliveries')
    .reduce((n, a) => n + JSON.parse(Buffer.from(a!.input!.payloads![0].data!).toString('utf8')).count, 0);
}

// Non-ASCII text and JSON-escaped slashes: a re-serialised body differs in bytes from what the platform signed.
const rawOrder = (id: number, email: string) =>
  `{"id":${id},"order_number":7001,"email":"${email}","created_at":"2026-11-02T08:00:00Z","updated_at":"2026-11-02T08:00:00Z",` +
  `"currency":"EUR","total_price":"12.50","current_total_price":"12.50","note":"Crème brûlée ☕ für Zoë",` +
  `"landing_site":"https:\\/\\/shop.example\\/products\\/tea","customer":{"first_name":"Zoë","last_name":"Ørsted"}}`;

describe('commerce webhook receiver', () => {
  let shop: TestShop;
  before(async () => {
    shop = await newShop({ subscriptions: ['orders/create'] });
  });

  it('a verified delivery answers 200 and is processed: signed over the exact bytes, with non-ASCII text and escaped slashes', async () => {
    const email = `zoe-${Date.now()}@example.test`;
    const raw = rawOrder(880001, email);
    assert.ok(raw.includes('\\/') && /[^\x00-\x7f]/.test(raw));
    const res = await deliver(shop, 'orders/create', raw);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { received: true, duplicate: false });
    const record = await processed(shop, res.webhookId);
    assert.equal(record.outcome, 'processed');
    const [row] = await orderLog(shop, 880001);
    assert.equal(row.raw_payload.note, 'Crème brûlée ☕ für Zoë');
    assert.equal(row.raw_payload.landing_site, 'https://shop.example/products/tea');
    assert.equal((await contactByEmail(shop.accountId, email)).name, 'Zoë Ørsted');
  });

  it('an unknown or missing shop domain answers 404 commerce_shop_unknown and records nothing', async () => {
    const body = JSON.stringify(orderPayload());
    for (const headers of [{ 'x-commerce-shop-domain': 'nobody.commerce.test' }, { 'x-commerce-shop-domain': '' }]) {
      const res = await deliver(shop, 'orders/create', body, { headers });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'commerce_shop_unknown');
    }
  });

  it('a signature over other bytes answers 401: the same JSON re-serialised (slashes unescaped) does not verify', async () => {
    const raw = rawOrder(880002, 'resign@example.test');
    const reserialised = JSON.stringify(JSON.parse(raw));
    assert.notEqual(reserialised, raw, 'the re-serialised body differs in bytes');
    const before = (await deliveryRecords(shop)).length;
    const cases = [
      { body: reserialised, signature: sign(shop.clientSecret, raw) },
      { body: raw, signature: sign('not-the-secret', raw) },
      { body: raw, signature: '' },
      { body: raw, signature: 'bm90IGEgZGlnZXN0' },
    ];
    for (const c of cases) {
      const res = await deliver(shop, 'orders/create', c.body, { signature: c.signature });
      assert.equal(res.status, 401, res.text);
      assert.equal(res.body.code, 'webhook_signature_invalid');
      assert.ok(!res.text.includes(c.signature || '\u0000') && !res.text.includes('brûlée'), 'no signature or body in the error');
    }
    assert.equal((await deliveryRecords(shop)).length, before, 'nothing recorded');
    assert.equal((await orderLog(shop, 880002)).length, 0);
  });

  it("a shop's own stored webhook secret also verifies (and the app client_secret still does)", async () => {
    const cipher = createTokenCipher(harness().deps.config.COMMERCE_TOKEN_ENCRYPTION_KEY);
    const own = await newShop({ webhookSecretEnc: cipher.encrypt('per-shop-secret') });
    await processed(own, await deliverOk(own, 'products/update', { id: 1 }, { secret: 'per-shop-secret' }));
    await processed(own, await deliverOk(own, 'products/update', { id: 2 }));
    assert.equal((await deliver(own, 'products/update', { id: 3 }, { secret: 'other' })).status, 401);
  });

  it('a verified delivery without a topic or webhook id answers 400 webhook_headers_missing', async () => {
    const variants: Array<Record<string, string>> = [
      { 'x-commerce-topic': '' },
      { 'x-commerce-webhook-id': '' },
      { 'x-commerce-topic': 'not a topic' },
    ];
    for (const headers of variants) {
      const res = await deliver(shop, 'orders/create', '{}', { headers });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'webhook_headers_missing');
    }
  });

  it('a duplicate within the 10-minute window answers 200 duplicate and is handed over once', async () => {
    const dup = await newShop();
    const body = JSON.stringify(orderPayload());
    const first = await deliver(dup, 'orders/create', body);
    assert.deepEqual(first.body, { received: true, duplicate: false });
    const again = await deliver(dup, 'orders/create', body, { webhookId: first.webhookId });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { received: true, duplicate: true });
    await processed(dup, first.webhookId);
    assert.equal(await handedOver(dup), 1);
    assert.equal((await deliveryRecords(dup)).length, 1);
  });

  describe('beyond the in-memory window', () => {
    let replica: PrivateApp;
    before(async () => {
      replica = await startPrivateApp([]);
    });
    after(async () => replica.close());

    it('a duplicate reaching a second replica (its own, empty memory) is dropped by the durable record', async () => {
      const dup = await newShop();
      const body = JSON.stringify(orderPayload());
      const webhookId = await deliverOk(dup, 'orders/create', body);
      await processed(dup, webhookId);
      const late = await deliver(dup, 'orders/create', body, { webhookId, baseUrl: replica.baseUrl });
      assert.equal(late.status, 200, late.text);
      assert.equal(late.body.duplicate, true);
      assert.equal(await handedOver(dup), 1);
    });

    it('copies of one delivery racing on two replicas are handed over once', async () => {
      const dup = await newShop();
      const body = JSON.stringify(orderPayload());
      const webhookId = 'race-1';
      const answers = await Promise.all(
        [0, 1, 2, 3].map((i) => deliver(dup, 'orders/create', body, { webhookId, baseUrl: i % 2 ? replica.baseUrl : undefined })),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 200],
      );
      assert.equal(answers.filter((a) => !a.body.duplicate).length, 1, 'exactly one copy is accepted as new');
      await processed(dup, webhookId);
      assert.equal(await handedOver(dup), 1);
    });
  });

  it('a delivery its handler rejects answers 200; the failure is recorded on the delivery and raised in the inbox', async () => {
    const bad = await newShop();
    const res = await deliver(bad, 'orders/create', { note: 'no id' });
    assert.equal(res.status, 200, res.text);
    const record = await processed(bad, res.webhookId);
    assert.deepEqual([record.outcome, record.error_code], ['failed', 'invalid_order']);
    const items = await harness().db('inbox_items').where({ account_id: bad.accountId, kind: 'commerce_webhook_failed' });
    assert.equal(items.length, 1);
    assert.equal(items[0].body.webhook_id, res.webhookId);
    assert.ok(!JSON.stringify(items[0].body).includes('no id'), 'the body of the delivery is not copied into the item');
  });

  it('a verified body that is not JSON answers 200 and is recorded as failed invalid_json', async () => {
    const bad = await newShop();
    const res = await deliver(bad, 'orders/create', '{"id": 1,');
    assert.equal(res.status, 200, res.text);
    const [record] = await deliveryRecords(bad);
    assert.deepEqual([record.outcome, record.error_code], ['failed', 'invalid_json']);
  });

  it('an unhandled topic is acknowledged and recorded as ignored', async () => {
    const record = await processed(shop, await deliverOk(shop, 'carts/update', { id: 'cart-1' }));
    assert.equal(record.outcome, 'ignored');
  });

  it("last_received_at is stamped on the shop's subscription to the topic", async () => {
    const stamped = await newShop({ subscriptions: ['orders/create', 'orders/updated'] });
    await deliverOk(stamped, 'orders/create', orderPayload());
    const subs = await harness().db('commerce_webhook_subscriptions').where({ connection_id: stamped.connectionId }).orderBy('topic');
    assert.ok(subs[0].last_received_at instanceof Date, 'orders/create stamped');
    assert.equal(subs[1].last_received_at, null, 'orders/updated untouched');
  });

  it('a body over 1 MiB answers 413 payload_too_large', async () => {
    const res = await deliver(shop, 'orders/create', `{"pad":"${'x'.repeat(1024 * 1024)}"}`);
    assert.equal(res.status, 413, res.text);
    assert.equal(res.body.code, 'payload_too_large');
  });

  it('when Temporal is unreachable the receiver still answers 200: the delivery waits in its record and is processed once Temporal takes it', async function () {
    this.timeout(20_000);
    const { deps } = harness();
    const unreachable = unreachableTemporal(deps.temporal.namespace);
    const server: Server = createApp({ ...deps, temporal: { ...deps.temporal, client: unreachable } }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const down = await newShop();
      const started = Date.now();
      const res = await deliver(down, 'orders/create', JSON.stringify(orderPayload()), {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { received: true, duplicate: false });
      assert.ok(Date.now() - started < 2_000, 'the 200 never waited on Temporal');
      // This process's relay (a working Temporal client) hands it over.
      assert.equal((await processed(down, res.webhookId)).outcome, 'processed');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await unreachable.connection.close().catch(() => undefined);
    }
  });
});
