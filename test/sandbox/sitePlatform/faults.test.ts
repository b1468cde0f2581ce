import assert from 'node:assert/strict';
import { world, type World } from './fixtures';

describe('site platform simulator: failure injection', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it('5xx fails the next N requests with an internal_error body, then requests succeed', async () => {
    w.sim.injectFault({ kind: '5xx', times: 2, status: 503 });
    for (let i = 0; i < 2; i++) {
      const res = await w.api('/sites');
      assert.equal(res.status, 503);
      assert.equal(((await res.json()) as { code: string }).code, 'internal_error');
    }
    assert.equal((await w.api('/sites')).status, 200);
  });

  it('a path filter leaves other paths untouched', async () => {
    w.sim.injectFault({ kind: '5xx', path: '/items' });
    assert.equal((await w.api('/sites')).status, 200);
    assert.equal((await w.api(`/collections/${w.blog.id}/items`)).status, 500);
  });

  it('malformed answers 200 with a JSON content type and a body that does not parse', async () => {
    w.sim.injectFault({ kind: 'malformed' });
    const res = await w.api(`/collections/${w.blog.id}/items`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /application\/json/);
    const text = await res.text();
    assert.throws(() => JSON.parse(text));
  });

  it('timeout never answers: the client gives up, and stop() drops the held request', async () => {
    w.sim.injectFault({ kind: 'timeout' });
    const started = Date.now();
    await assert.rejects(w.api('/sites', { signal: AbortSignal.timeout(200) }), /timeout|abort/i);
    assert.ok(Date.now() - started >= 190);
    assert.equal((await w.api('/sites')).status, 200);
    w.sim.injectFault({ kind: 'timeout' });
    const held = w.api('/sites').then(
      () => 'answered',
      () => 'dropped',
    );
    await new Promise((r) => setTimeout(r, 50));
    await w.sim.stop();
    assert.equal(await held, 'dropped');
  });

  it('the request log records method, path and status, faults included', async () => {
    w.sim.injectFault({ kind: '5xx', status: 502 });
    await (await w.api('/sites')).arrayBuffer();
    await (await w.api(`/sites/${w.site.id}`)).arrayBuffer();
    const log = w.sim.requests().map((r) => [r.method, r.path, r.status]);
    assert.deepEqual(log, [
      ['GET', '/v2/sites', 502],
      ['GET', `/v2/sites/${w.site.id}`, 200],
    ]);
  });
});
