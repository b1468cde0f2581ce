import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../../../src/app/activities';
import type { Config } from '../../../src/config';
import { createWorker } from '../../../src/temporal/worker';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { eventually } from '../../jobs/jobTestKit';
import { handleOf, heldBy, itemRow, requestsOf, startRequestWorld, type RequestWorld } from './requestsKit';

describe('schedule requests while the publish runs: 409 schedule_publishing, nothing changed', () => {
  // The product's worker with the world's config on its own queue; the simulator fails every item write (5xx, retried),
  // so once its time came the workflow stays publishing.
  let rw: RequestWorld;
  let app: PrivateApp;
  let stopWorker: () => Promise<void>;
  before(async () => {
    rw = await startRequestWorld();
    const h = harness();
    const taskQueue = `publishing-${randomBytes(4).toString('hex')}`;
    const { worker, connection }: { worker: Worker; connection: { close(): Promise<void> } } = await createWorker({
      address: h.temporalAddress,
      namespace: h.deps.temporal.namespace,
      taskQueue,
      bundle: h.bundle,
      activities: createActivities({ config: { ...h.deps.config, ...rw.world.config } as Config, db: h.db, logger: h.deps.logger }),
    });
    const running = worker.run();
    stopWorker = async () => {
      worker.shutdown();
      await running;
      await connection.close();
    };
    app = await startPrivateApp([], { config: rw.world.config, taskQueue });
  });
  after(async () => {
    await app.close();
    await stopWorker();
    await rw.close();
  });

  it('a reschedule or a cancel of a publish in progress is refused by the workflow; the row keeps its date', async function () {
    this.timeout(20_000);
    const r = requestsOf(rw);
    const item = await r.create({ cms_link: r.link() });
    const at = new Date(Date.now() + 1500).toISOString();
    const token = rw.t.account.agentKey;
    const armed = await app.call('PATCH', `/api/agent/marketing/content/${item.id}`, { token, body: { scheduled_publish_at: at } });
    assert.equal(armed.status, 200, armed.text);
    rw.world.sim.injectFault({ kind: '5xx', status: 503, times: 1000, path: '/items' });
    await eventually(
      () => heldBy(rw, item.id),
      (v) => v.status === 'publishing',
      10_000,
      'the publish to start',
    );
    try {
      const versions = await r.versions(item.id);
      for (const res of [
        await app.call('PATCH', `/api/agent/marketing/content/${item.id}`, {
          token,
          body: { scheduled_publish_at: new Date(Date.now() + 3_600_000).toISOString() },
        }),
        await app.call('DELETE', `/api/agent/marketing/content/${item.id}/schedule`, { token }),
        await app.call('PATCH', `/api/agent/marketing/content/${item.id}`, { token, body: { deploy_target: 'none' } }),
      ]) {
        assert.equal(res.status, 409, res.text);
        assert.equal(res.body.code, 'schedule_publishing');
      }
      const row = await itemRow(item.id);
      assert.deepEqual([row.scheduled_publish_at.toISOString(), row.schedule_executes, row.deploy_target], [at, true, 'production']);
      assert.equal(await r.versions(item.id), versions);
    } finally {
      await handleOf(rw, item.id).terminate('test over');
      rw.world.sim.clearFaults();
    }
  });
});
