import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { deliver, deliveryRecords, newShop, orderPayload, processed } from './receiverKit';

/**
 * Rule: a verified delivery is never answered with a 5xx (the platform would retry it for 48 hours). A body that is
 * valid JSON but cannot be stored as jsonb — a lone UTF-16 surrogate escape like U+0000 — is recorded as failed
 * `invalid_json` and answered 200, every time; one nested deeper than 64 levels is recorded as failed `json_too_deep`.
 */
describe('commerce webhook receiver: verified bodies Postgres cannot store', () => {
  const unstorable: Array<[string, string]> = [
    ['a lone high surrogate in a value', '{"id":1,"note":"\\ud800"}'],
    ['a lone low surrogate in a value', '{"id":1,"note":"x\\udc00y"}'],
    ['a lone surrogate in a key', '{"id":1,"\\ud800":"x"}'],
    ['a reversed surrogate pair', '{"id":1,"note":"\\ude00\\ud83d"}'],
    ['U+0000', '{"id":1,"note":"\\u0000"}'],
  ];

  for (const [what, body] of unstorable) {
    it(`${what}: 200, recorded failed invalid_json, and a retry of it is 200 too`, async () => {
      const items = await failsOnceUnstored(body, 'invalid_json');
      assert.ok(!JSON.stringify(items[0].body).includes('note'), 'the body is not copied into the inbox item');
    });
  }

  it('a verified body nested deeper than 64 levels is 200, recorded failed json_too_deep without its payload, and a retry is 200 too', async () => {
    // Nothing recursive runs on a body nested without bound: `note_attributes` nests 100,000 arrays.
    await failsOnceUnstored(`{"id":1,"note_attributes":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 'json_too_deep');
  });

  it('a well-formed surrogate pair is stored and processed', async () => {
    const shop = await newShop();
    const payload = JSON.stringify(orderPayload({ note: 'tea 😀' })).replace('😀', '\\ud83d\\ude00');
    assert.ok(payload.includes('\\ud83d\\ude00'));
    const res = await deliver(shop, 'orders/create', payload);
    assert.equal(res.status, 200, res.text);
    assert.equal((await processed(shop, res.webhookId)).outcome, 'processed');
  });

  it('an unstorable body arriving together with good ones fails only itself', async () => {
    const shop = await newShop();
    const good = [orderPayload(), orderPayload()];
    const results = await Promise.all([
      deliver(shop, 'orders/create', good[0]),
      deliver(shop, 'orders/create', '{"id":2,"note":"\\ud800"}'),
      deliver(shop, 'orders/create', good[1]),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      [200, 200, 200],
    );
    assert.equal((await processed(shop, results[0].webhookId)).outcome, 'processed');
    assert.equal((await processed(shop, results[2].webhookId)).outcome, 'processed');
  });
});

/** Delivers `body` twice (a platform retry): both 200, one delivery recorded failed with `code`, no payload kept, one inbox item. */
async function failsOnceUnstored(body: string, code: string) {
  const shop = await newShop();
  const first = await deliver(shop, 'orders/create', body);
  assert.equal(first.status, 200, first.text);
  const retry = await deliver(shop, 'orders/create', body, { webhookId: first.webhookId });
  assert.equal(retry.status, 200, retry.text);
  assert.equal(retry.body.duplicate, true);
  const records = await deliveryRecords(shop);
  assert.equal(records.length, 1);
  assert.deepEqual([records[0].outcome, records[0].error_code], ['failed', code]);
  const stored = await harness().db('commerce_webhook_deliveries').where({ connection_id: shop.connectionId }).first();
  assert.equal(stored.payload, null, 'nothing of the body is stored');
  const items = await harness().db('inbox_items').where({ account_id: shop.accountId, kind: 'commerce_webhook_failed' });
  assert.equal(items.length, 1);
  return items;
}
