import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app/app';
import { createMetrics } from '../../src/http/metrics';
import { defineSchedule } from '../../src/temporal/schedules';
import { scheduleIdOf } from '../../src/temporal/scheduleSync';
import { eventually } from '../jobs/jobTestKit';
import { harness } from '../helpers/harness';
import { callAt } from '../helpers/http';
import { quickJobContract } from '../workflows/quickJob.contract';

describe('schedule controls (GET /api/schedules, POST /api/schedules/{name}/pause|unpause|trigger)', function () {
  this.timeout(60_000);
  const name = `test-controls-${randomBytes(3).toString('hex')}`;
  const unsynced = `test-unsynced-${randomBytes(3).toString('hex')}`;
  let server: Server;
  let base: string;
  const secret = () => harness().deps.config.CRON_SECRET!;
  const call = (method: string, path: string, body?: unknown, token = secret()) => callAt(base, method, path, { token, body });

  before(async () => {
    const { deps, client } = harness();
    const entries = [name, unsynced].map((n) =>
      defineSchedule(quickJobContract, {
        name: n,
        cron: '0 3 1 1 *',
        args: [{ value: n }],
        overlap: 'SKIP',
        description: 'Test schedule of the controls suite.',
      }),
    );
    await client.schedule.create({
      scheduleId: scheduleIdOf(name),
      spec: { cronExpressions: ['0 3 1 1 *'], timezone: 'UTC' },
      action: {
        type: 'startWorkflow',
        workflowType: quickJobContract.workflowType,
        taskQueue: deps.temporal.taskQueue,
        args: [{ value: name }],
        workflowId: `cron:${name}`,
      },
    });
    server = createApp({ ...deps, schedules: entries, metrics: createMetrics(false) }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await harness()
      .client.schedule.getHandle(scheduleIdOf(name))
      .delete()
      .catch(() => undefined);
    await new Promise<void>((resolve) => {
      server?.closeAllConnections();
      server?.close(() => resolve());
    });
  });

  it('lists every schedule of the table with its spec, paused state, next runs and last run; one not in Temporal says synced: false', async () => {
    const res = await call('GET', '/api/schedules');
    assert.equal(res.status, 200, res.text);
    const ours = res.body.data.find((s: { name: string }) => s.name === name);
    assert.deepEqual(
      [ours.cron, ours.workflow_type, ours.overlap, ours.synced, ours.paused],
      ['0 3 1 1 *', quickJobContract.workflowType, 'SKIP', true, false],
    );
    assert.equal(ours.next_runs.length, 3);
    assert.match(ours.next_runs[0], /-01-01T03:00:00\.000Z$/);
    const other = res.body.data.find((s: { name: string }) => s.name === unsynced);
    assert.deepEqual([other.synced, other.next_runs, other.last_run], [false, [], null]);
  });

  it('pause with a note pauses it in Temporal; unpause resumes it', async () => {
    const paused = await call('POST', `/api/schedules/${name}/pause`, { note: 'maintenance window' });
    assert.equal(paused.status, 200, paused.text);
    assert.deepEqual([paused.body.paused, paused.body.note], [true, 'maintenance window']);
    const described = await harness().client.schedule.getHandle(scheduleIdOf(name)).describe();
    assert.equal(described.state.paused, true);
    const resumed = await call('POST', `/api/schedules/${name}/unpause`, {});
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(resumed.body.paused, false);
    assert.equal(resumed.body.next_runs.length, 3);
  });

  it('trigger fires it now through Temporal: the run shows as its last run and completes', async () => {
    const res = await call('POST', `/api/schedules/${name}/trigger`);
    assert.equal(res.status, 202, res.text);
    const listed = await eventually(
      async () => (await call('GET', '/api/schedules')).body.data.find((s: { name: string }) => s.name === name),
      (s) => s.last_run?.status === 'completed',
      20_000,
      'the triggered run',
    );
    assert.match(listed.last_run.job_id, new RegExp(`^cron:${name}`));
  });

  it('operators only: no cron secret or a wrong one is 401, an account session token too; unknown names 404; unsynced 409', async () => {
    for (const token of ['', 'not-the-cron-secret-not-the-cron-secret', 'wys_not_a_cron_secret']) {
      const res = await call('POST', `/api/schedules/${name}/pause`, { note: 'x' }, token);
      assert.equal(res.status, 401, token);
    }
    assert.equal((await harness().client.schedule.getHandle(scheduleIdOf(name)).describe()).state.paused, false);
    const missing = await call('POST', '/api/schedules/no-such-schedule/trigger');
    assert.deepEqual([missing.status, missing.body.code], [404, 'schedule_not_found']);
    const notSynced = await call('POST', `/api/schedules/${unsynced}/pause`, { note: 'x' });
    assert.deepEqual([notSynced.status, notSynced.body.code], [409, 'schedule_not_synced']);
    const noNote = await call('POST', `/api/schedules/${name}/pause`, {});
    assert.equal(noNote.status, 400);
  });
});
