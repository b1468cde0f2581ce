import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app/app';
import { createMetrics } from '../../src/http/metrics';
import { jobSearchAttributes } from '../../src/temporal/jobs';
import { defineSchedule } from '../../src/temporal/schedules';
import { scheduledWorkflowIdOf, scheduleIdOf } from '../../src/temporal/scheduleSync';
import { SYSTEM_ACCOUNT } from '../../src/temporal/searchAttributes';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { callAt, type CallResult } from '../helpers/http';
import { eventually, startTestJob } from '../jobs/jobTestKit';
import { quickJobContract } from '../workflows/quickJob.contract';
import { steppedJobContract } from '../workflows/steppedJob.contract';

interface Run {
  id: string;
  status: string;
  started_by: string;
  closed_at: string | null;
}

describe('schedule runs (GET /api/schedules/{name}/runs and /runs/{id})', function () {
  this.timeout(90_000);
  const quick = `test-runs-${randomBytes(3).toString('hex')}`;
  const slow = `test-runs-slow-${randomBytes(3).toString('hex')}`;
  let server: Server;
  let base: string;
  const secret = () => harness().deps.config.CRON_SECRET!;
  const call = (method: string, path: string, token = secret()) => callAt(base, method, path, { token });
  const runsUrl = (name: string) => `/api/schedules/${name}/runs`;
  const runUrl = (name: string, id: string) => `${runsUrl(name)}/${encodeURIComponent(id)}`;

  async function runNow(name: string): Promise<CallResult> {
    const res = await call('POST', `/api/cron/${name}`);
    assert.equal(res.status, 202, res.text);
    return res;
  }

  const closed = (name: string, id: string) =>
    eventually(
      () => call('GET', runUrl(name, id)),
      (res) => res.status === 200 && res.body.status !== 'running',
      30_000,
      `run ${id} to close`,
    );

  before(async () => {
    const { deps, client } = harness();
    const entries = [
      defineSchedule(quickJobContract, {
        name: quick,
        cron: '0 3 1 1 *',
        args: [{ value: quick }],
        overlap: 'ALLOW_ALL',
        description: 'Test schedule of the runs suite.',
      }),
      defineSchedule(steppedJobContract, {
        name: slow,
        cron: '0 3 1 1 *',
        args: [{ steps: 600, stepMs: 100 }],
        overlap: 'ALLOW_ALL',
        description: 'Test schedule of the runs suite: a run that takes a minute.',
      }),
    ];
    // As `schedules sync` writes it: runs carry AccountId = _system and JobKind = the schedule's name.
    await client.schedule.create({
      scheduleId: scheduleIdOf(quick),
      spec: { cronExpressions: ['0 3 1 1 *'], timezone: 'UTC' },
      action: {
        type: 'startWorkflow',
        workflowType: quickJobContract.workflowType,
        taskQueue: deps.temporal.taskQueue,
        args: [{ value: quick }],
        workflowId: scheduledWorkflowIdOf(quick),
        typedSearchAttributes: jobSearchAttributes(quick, SYSTEM_ACCOUNT),
      },
      policies: { overlap: 'ALLOW_ALL' },
    });
    server = createApp({ ...deps, schedules: entries, metrics: createMetrics(false) }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await harness()
      .client.schedule.getHandle(scheduleIdOf(quick))
      .delete()
      .catch(() => undefined);
    await new Promise<void>((resolve) => {
      server?.closeAllConnections();
      server?.close(() => resolve());
    });
  });

  it('a run-now answers where its run is read: run_url and Location name GET /api/schedules/{name}/runs/{id}, readable with the cron secret', async () => {
    const started = await runNow(quick);
    const url = `${runsUrl(quick)}/${started.body.id}`; // `cron:<name>:<uuid>`: nothing to escape
    assert.equal(started.body.run_url, url);
    assert.equal(started.headers.get('location'), url);
    const run = await closed(quick, started.body.id);
    assert.equal(run.body.id, started.body.id);
    assert.equal(run.body.schedule, quick);
    assert.deepEqual([run.body.status, run.body.started_by, run.body.partial], ['completed', 'run_now', null]);
    assert.deepEqual(run.body.result, { value: quick, run_id: started.body.run_id });
    assert.deepEqual([run.body.accounts, run.body.options, run.body.error], [[], {}, null]);
    assert.ok(run.body.started_at && run.body.closed_at);
    assert.equal(run.body.links.self, url);
  });

  it('GET /api/schedules/{name}/runs lists the runs the schedule started and those started by hand, newest first, paged by cursor', async () => {
    const manual = [(await runNow(quick)).body.id, (await runNow(quick)).body.id];
    const triggered = await call('POST', `/api/schedules/${quick}/trigger`);
    assert.equal(triggered.status, 202, triggered.text);
    const all = await eventually(
      () => call('GET', `${runsUrl(quick)}?limit=50`),
      (res) =>
        res.status === 200 &&
        manual.every((id) => res.body.data.some((r: Run) => r.id === id && r.status === 'completed')) &&
        res.body.data.some((r: Run) => r.started_by === 'schedule' && r.status === 'completed'),
      30_000,
      'the scheduled and the hand-started runs listed, closed',
    );
    const runs: Run[] = all.body.data;
    assert.ok(runs.every((r) => r.id.startsWith(`cron:${quick}`)));
    const scheduled = runs.find((r) => r.started_by === 'schedule')!;
    assert.ok(!scheduled.id.startsWith(`cron:${quick}:`), 'a scheduled run is not a run-now');
    const closedAt = runs.map((r) => r.closed_at ?? '9999');
    assert.deepEqual(closedAt, [...closedAt].sort().reverse(), 'newest first');

    const first = await call('GET', `${runsUrl(quick)}?limit=2`);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual([first.body.data.length, first.body.limit, first.body.has_more], [2, 2, true]);
    const rest = await call('GET', `${runsUrl(quick)}?limit=50&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    const paged = [...first.body.data, ...rest.body.data].map((r: Run) => r.id);
    assert.deepEqual(
      paged,
      runs.map((r) => r.id),
    );
    const foreign = await call('GET', `${runsUrl(slow)}?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    assert.deepEqual([foreign.status, foreign.body.code], [400, 'invalid_cursor']);
  });

  it('a running run answers its progress and no partial flag yet', async () => {
    const started = await runNow(slow);
    try {
      const run = await eventually(
        () => call('GET', runUrl(slow, started.body.id)),
        (res) => res.status === 200 && res.body.progress !== null,
        20_000,
        'the progress of the running run',
      );
      assert.deepEqual([run.body.status, run.body.partial, run.body.result, run.body.closed_at], ['running', null, null, null]);
      assert.equal(run.body.progress.phase, 'working');
      const listed = await eventually(
        () => call('GET', `${runsUrl(slow)}?status=running`),
        (res) => res.status === 200 && res.body.data.some((r: Run) => r.id === started.body.id),
        10_000,
        'the running run listed',
      );
      assert.equal(listed.body.data[0].status, 'running');
    } finally {
      await harness().client.workflow.getHandle(started.body.id).terminate('test over');
    }
  });

  it('an unknown schedule is 404 schedule_not_found; an id that is not a run of that sweep is 404 schedule_run_not_found', async () => {
    const missing = await call('GET', runsUrl('no-such-sweep'));
    assert.deepEqual([missing.status, missing.body.code], [404, 'schedule_not_found']);
    const missingOne = await call('GET', runUrl('no-such-sweep', 'cron:no-such-sweep:x'));
    assert.deepEqual([missingOne.status, missingOne.body.code], [404, 'schedule_not_found']);

    const otherSweep = await runNow(slow);
    await harness().client.workflow.getHandle(otherSweep.body.id).terminate('test over');
    const account = await newAccount('Runs Co');
    const job = await startTestJob(account.ownerToken, 'quick', { value: 'x' });
    for (const id of [otherSweep.body.id, job.body.id, `cron:${quick}:missing`, 'x'.repeat(2000)]) {
      const res = await call('GET', runUrl(quick, id));
      assert.deepEqual([res.status, res.body.code], [404, 'schedule_run_not_found'], id.slice(0, 60));
    }
  });

  it('operators only: no cron secret, a wrong one or an account token is 401', async () => {
    const started = await runNow(quick);
    const account = await newAccount('Not An Operator Co');
    for (const token of ['', `${secret()}x`, account.ownerToken]) {
      assert.equal((await call('GET', runsUrl(quick), token)).status, 401);
      assert.equal((await call('GET', runUrl(quick, started.body.id), token)).status, 401);
    }
  });
});
