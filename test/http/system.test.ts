import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAccount } from '../helpers/accounts';
import { call } from '../helpers/http';

describe('system routes', () => {
  it('healthz answers ok', async () => {
    const res = await call('GET', '/healthz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
  });

  it('readyz reports Postgres and Temporal reachable', async () => {
    const res = await call('GET', '/readyz');
    assert.equal(res.status, 200);
    assert.equal(res.body.checks.postgres.ok, true);
    assert.equal(res.body.checks.temporal.ok, true);
  });

  it('metrics label request durations by matched route, never by raw path', async () => {
    const { ownerToken } = await newAccount();
    const keyId = randomUUID();
    const stray = randomUUID();
    await call('GET', '/healthz');
    await call('DELETE', `/api/agent-keys/${keyId}`, { token: ownerToken });
    await call('GET', `/nowhere/${stray}`);
    const res = await call('GET', '/metrics');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(res.text, /^# TYPE http_request_duration_seconds histogram$/m);
    assert.match(res.text, /^http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*status="200"[^}]*\} \d+$/m);
    assert.match(res.text, /route="\/api\/agent-keys\/:id",status="404"/);
    assert.match(res.text, /route="unmatched",status="404"/);
    assert.ok(!res.text.includes(keyId), 'a raw path with an id became a label');
    assert.ok(!res.text.includes(stray), 'an unmatched raw path became a label');
  });
});
