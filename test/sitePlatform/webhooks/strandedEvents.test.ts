import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createActivities } from '../../../src/app/activities';
import { SiteEventRelay } from '../../../src/sitePlatform/webhooks/relay';
import { createWorker } from '../../../src/temporal/worker';
import { entityJobId } from '../../../src/temporal/jobIds';
import { sitePlatformEventsContract } from '../../../workflows/sitePlatformEvents.contract';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import { bodyEventId, deliver, envelope, fannedOut, newConnection, startReceiverWorld, type ReceiverWorld } from './receiverKit';

describe("no accepted site event is ever stranded: the site's workflow drains its events from the table", () => {
  let rw: ReceiverWorld;
  before(async () => {
    rw = await startReceiverWorld();
    // This test decides who hands events over.
    await rw.relay.stop();
  });
  after(async () => {
    await rw?.close();
  });

  it('a run terminated by hand is replaced when the relay hands its events over again, and each event is fanned out once', async function () {
    this.timeout(60_000);
    const c = await newConnection(rw, { authKind: 'site_token' });
    const siteId = c.siteIds[0];
    // A queue no worker polls yet: the events are handed over to a run that cannot work them.
    const taskQueue = `stranded-${randomBytes(4).toString('hex')}`;
    const h = harness();
    const relay = new SiteEventRelay(
      { ...h.deps, temporal: { ...h.deps.temporal, taskQueue } },
      { againAfterMs: 1_000, againEveryMs: 500 },
    ).start();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const raw = JSON.stringify(envelope('comment_created', { siteId, threadId: randomUUID(), content: `n${i}` }));
        assert.equal((await deliver(rw, c, raw)).status, 200);
        ids.push(bodyEventId('comment_created', raw));
      }
      const events = () => h.db('site_platform_inbound_events').where({ account_id: c.accountId, site_id: siteId });
      await eventually(
        async () => (await events().whereNull('dispatched_at')).length,
        (n) => n === 0,
        20_000,
        'every event handed over',
      );
      const handle = h.client.workflow.getHandle(entityJobId(sitePlatformEventsContract.jobKind, c.accountId, siteId));
      await handle.terminate('an operator ended it');

      const { worker, connection } = await createWorker({
        address: h.temporalAddress,
        namespace: h.deps.temporal.namespace,
        taskQueue,
        bundle: h.bundle,
        activities: createActivities({ config: rw.config, db: h.db, logger: rw.log.logger }),
      });
      const running = worker.run();
      try {
        for (const id of ids) await fannedOut(c.accountId, siteId, id, 30_000);
      } finally {
        worker.shutdown();
        await running;
        await connection.close();
      }
      const rows = await events();
      assert.equal(rows.length, ids.length, 'one record per event');
      assert.ok(
        rows.every((r) => r.fanned_out_at && !r.fan_out.error),
        'each fanned out, none recorded as failed',
      );
      const runs = [];
      for await (const run of h.client.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` })) runs.push(run.status.name);
      assert.ok(runs.includes('TERMINATED') && runs.length >= 2, `the terminated run and its replacement: ${runs.join(', ')}`);
    } finally {
      await relay.stop();
    }
  });
});
