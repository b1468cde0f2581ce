import assert from 'node:assert/strict';
import { call } from '../helpers/http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('an incoming X-Request-Id is echoed, on success and in error bodies', async () => {
    const ok = await call('GET', '/healthz', { headers: { 'x-request-id': 'lb-7f3a.2:9' } });
    assert.equal(ok.headers.get('x-request-id'), 'lb-7f3a.2:9');
    const failed = await call('GET', '/nowhere', { headers: { 'x-request-id': 'trace-123' } });
    assert.equal(failed.headers.get('x-request-id'), 'trace-123');
    assert.equal(failed.body.request_id, 'trace-123');
  });

  it('a request without X-Request-Id gets a generated uuid, different per request', async () => {
    const a = await call('GET', '/healthz');
    const b = await call('GET', '/healthz');
    assert.match(a.headers.get('x-request-id') ?? '', UUID);
    assert.match(b.headers.get('x-request-id') ?? '', UUID);
    assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'));
  });

  it('a malformed X-Request-Id is replaced by a generated uuid', async () => {
    for (const bad of ['has spaces in it', '<script>', 'x'.repeat(129), 'semi;colon']) {
      const res = await call('GET', '/nowhere', { headers: { 'x-request-id': bad } });
      assert.match(res.headers.get('x-request-id') ?? '', UUID, bad);
      assert.equal(res.body.request_id, res.headers.get('x-request-id'));
    }
  });
});
