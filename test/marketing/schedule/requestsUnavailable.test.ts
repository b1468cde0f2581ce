import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unreachableTemporal } from '../../helpers/unreachableTemporal';
import { createApp } from '../../../src/app/app';
import type { AppDeps } from '../../../src/deps';
import { createMetrics } from '../../../src/http/metrics';
import { harness } from '../../helpers/harness';
import { callAt } from '../../helpers/http';
import { heldBy, hoursAhead, itemRow, requestsOf, runOf, startRequestWorld, type RequestWorld } from './requestsKit';

describe('schedule requests while Temporal is unreachable: 503 temporal_unavailable, nothing changed', () => {
  let rw: RequestWorld;
  let r: ReturnType<typeof requestsOf>;
  let server: Server;
  let down: (method: string, path: string, body?: unknown) => ReturnType<typeof callAt>;
  before(async () => {
    rw = await startRequestWorld();
    r = requestsOf(rw);
    // The same app and database, its Temporal client pointed at a port nothing listens on.
    const base = harness().deps;
    const unreachable = unreachableTemporal(base.temporal.namespace);
    const deps: AppDeps = {
      ...base,
      config: { ...base.config, ...rw.world.config },
      temporal: { ...base.temporal, client: unreachable },
      metrics: createMetrics(false),
    };
    server = createApp(deps).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    down = (method, path, body) => callAt(url, method, path, { token: rw.t.account.agentKey, body });
  });
  after(async () => {
    // The unreachable connection is left open: the SDK may still retry a failed call on it after the answer.
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    await rw.close();
  });

  it('a schedule request is 503 with Retry-After; the row, its versions and Temporal are as before', async function () {
    this.timeout(30_000);
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const [before, versions] = [await itemRow(item.id), await r.versions(item.id)];
    const res = await down('PATCH', `/api/agent/marketing/content/${item.id}`, { scheduled_publish_at: hoursAhead(), title: 'Changed' });
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.code, 'temporal_unavailable');
    assert.ok(res.headers.get('retry-after'));
    assert.deepEqual(await itemRow(item.id), before);
    assert.equal(await r.versions(item.id), versions);
    assert.equal(await runOf(rw, item.id), null);
  });

  it('a cancel (DELETE …/schedule) is 503 and the workflow keeps holding the date', async function () {
    this.timeout(30_000);
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const at = hoursAhead(2);
    assert.equal((await r.patch(item.id, { scheduled_publish_at: at })).status, 200);
    const res = await down('DELETE', `/api/agent/marketing/content/${item.id}/schedule`);
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.code, 'temporal_unavailable');
    const row = await itemRow(item.id);
    assert.deepEqual([row.scheduled_publish_at.toISOString(), row.schedule_executes], [at, true]);
    assert.deepEqual(await heldBy(rw, item.id), { status: 'scheduled', at, deployTarget: 'production' });
  });

  it('a create with a schedule is 503 and creates no item', async function () {
    this.timeout(30_000);
    const count = async () =>
      (await harness().db('content_items').where({ account_id: rw.t.account.accountId }).count<{ n: string }[]>({ n: '*' }))[0].n;
    const before = await count();
    const res = await down('POST', '/api/agent/marketing/content', {
      title: 'Later',
      cms_link: r.link(rw.nativeProjectId),
      scheduled_publish_at: hoursAhead(),
    });
    assert.equal(res.status, 503, res.text);
    assert.equal(await count(), before);
  });
});
