import assert from 'node:assert/strict';
import { deliver, eventRows, newConnection, startReceiverWorld, type ReceiverWorld } from './receiverKit';

/**
 * Rule: nothing recursive runs on a body nested without bound. A delivery nested deeper than 64 levels is unusable,
 * like one that is not JSON: 200 ignored, nothing written (the platform would resend the same bytes forever).
 */
describe('site platform webhook receiver: bodies nested too deep', () => {
  let rw: ReceiverWorld;
  before(async () => {
    rw = await startReceiverWorld();
  });
  after(async () => {
    await rw?.close();
  });

  it('a delivery nested deeper than 64 levels is 200 ignored and nothing is written', async () => {
    const conn = await newConnection(rw, { authKind: 'site_token' });
    const levels = 100_000;
    const body = `{"triggerType":"site_publish","payload":{"siteId":"${conn.siteIds[0]}","x":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
    const res = await deliver(rw, conn, body);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { ignored: true });
    assert.equal((await eventRows(conn.accountId)).length, 0);
  });
});
