import assert from 'node:assert/strict';
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
});
