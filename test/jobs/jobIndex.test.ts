import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { unreachableTemporal } from '../helpers/unreachableTemporal';
import { createApp } from '../../src/app/app';
import type { AppDeps } from '../../src/deps';
import { createMetrics } from '../../src/http/metrics';
import { JobIndexWatcher } from '../../src/jobs/jobIndexWatcher';
import { jobIndexRecorder, recordJobRunClosed } from '../../src/jobs/jobIndexWrites';
import { jobSearchAttributes } from '../../src/temporal/jobs';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { call, callAt } from '../helpers/http';
import { harness } from '../helpers/harness';
import { testRoutes } from '../helpers/testRoutes';
import { steppedJobContract } from '../workflows/steppedJob.contract';
import { eventually, jobUrl, startTestJob } from './jobTestKit';

const list = (token: string, query = '') => call('GET', `/api/jobs${query ? `?${query}` : ''}`, { token });
const listed = (body: { data: Array<{ id: string; status: string }> }, id: string) => body.data.find((job) => job.id === id);

/** The job index (Postgres) serves `GET /api/jobs`; the watcher keeps it in step with what Temporal did on its own. */
describe('the job index behind GET /api/jobs', function () {
  this.timeout(60_000);
  let account: TestAccount;
  const watcher = () => new JobIndexWatcher(harness().deps, { lookbackMs: 5 * 60_000 });

  before(async () => {
    account = await newAccount('Index Co');
  });

  it('a job started through the API is listed in the answer right after the start, with no wait for visibility', async () => {
    const started = await startTestJob(account.ownerToken, 'stepped', { steps: 100, stepMs: 200 });
    assert.equal(started.status, 202);
    const res = await list(account.ownerToken, 'status=running');
    assert.equal(listed(res.body, started.body.id)?.status, 'running');
    await call('POST', `${jobUrl(started.body.id)}/cancel`, { token: account.ownerToken });
  });

  it('GET /api/jobs answers from the index while Temporal cannot be reached', async () => {
    const started = await startTestJob(account.ownerToken, 'quick', { value: 'indexed' });
    const base = harness().deps;
    const unreachable = unreachableTemporal(base.temporal.namespace);
    const deps: AppDeps = { ...base, temporal: { ...base.temporal, client: unreachable }, metrics: createMetrics(false) };
    const server: Server = createApp(deps, testRoutes()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await callAt(url, 'GET', '/api/jobs', { token: account.ownerToken });
      assert.equal(res.status, 200);
      assert.ok(listed(res.body, started.body.id), 'the job is listed');
      const one = await callAt(url, 'GET', jobUrl(started.body.id), { token: account.ownerToken });
      assert.equal(one.status, 503, 'a single job is read from Temporal, which is down');
      assert.equal(one.body.code, 'temporal_unavailable');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a canceled job is listed canceled once the watcher has seen the close, with no job code reporting it', async () => {
    const started = await startTestJob(account.ownerToken, 'stepped', { steps: 100, stepMs: 200 });
    await call('POST', `${jobUrl(started.body.id)}/cancel`, { token: account.ownerToken });
    const w = watcher();
    const res = await eventually(
      async () => {
        await w.dispatchOnce();
        return list(account.ownerToken, 'status=canceled');
      },
      (r) => listed(r.body, started.body.id) !== undefined,
      20_000,
      'the canceled job in the list',
    );
    assert.equal(listed(res.body, started.body.id)?.status, 'canceled');
    const running = await list(account.ownerToken, 'status=running');
    assert.equal(listed(running.body, started.body.id), undefined, 'no longer listed as running');
  });

  it('a job started outside the API (an operator, a child workflow) is listed once the watcher has read it from visibility', async () => {
    const { client, taskQueue } = harness().deps.temporal;
    const id = `test_stepped:${account.accountId}:${randomUUID()}`;
    const handle = await client.workflow.start(steppedJobContract.workflowType, {
      workflowId: id,
      taskQueue,
      args: [{ steps: 100, stepMs: 200 }],
      typedSearchAttributes: jobSearchAttributes(steppedJobContract.jobKind, account.accountId),
    });
    try {
      assert.equal(listed((await list(account.ownerToken)).body, id), undefined, 'not recorded at its start');
      const w = watcher();
      const res = await eventually(
        async () => {
          await w.dispatchOnce();
          return list(account.ownerToken);
        },
        (r) => listed(r.body, id) !== undefined,
        20_000,
        'the job in the list',
      );
      assert.equal(listed(res.body, id)?.status, 'running');
    } finally {
      await handle.cancel();
    }
  });

  it('a job that closes before the API has recorded its start is listed closed, with what it was started with', async () => {
    const { db, logger } = harness().deps;
    const run = {
      run_id: randomUUID(),
      job_id: `research:${account.accountId}:${randomUUID()}`,
      account_id: account.accountId,
      kind: 'research',
    };
    const closedAt = new Date().toISOString();
    // The job's close report first (a run that fails within milliseconds), then the API's record of the start.
    await recordJobRunClosed(db, {
      accountId: account.accountId,
      job: { id: run.job_id, kind: run.kind, status: 'failed', run_id: run.run_id, created_at: closedAt, closed_at: closedAt },
    });
    await jobIndexRecorder(
      db,
      logger,
    )({
      ...run,
      searchAttributes: { ContentId: 'content-raced' },
      options: { tags: ['raced'], metadata: { order: '7' } },
    });
    const res = await list(account.ownerToken, 'tag=raced');
    const job = listed(res.body, run.job_id) as Record<string, unknown> | undefined;
    assert.ok(job, JSON.stringify(res.body));
    assert.deepEqual(
      [job.status, job.content_id, job.tags, job.metadata, job.closed_at],
      ['failed', 'content-raced', ['raced'], { order: '7' }, closedAt],
    );
    // A later read of the open run (an older visibility row) leaves the close as it is.
    await jobIndexRecorder(db, logger)(run);
    assert.equal(listed((await list(account.ownerToken, 'tag=raced')).body, run.job_id)?.status, 'failed');
  });

  it("another account's run read from visibility is never listed to this account", async () => {
    const other = await newAccount('Index Other Co');
    const started = await startTestJob(other.ownerToken, 'quick', { value: 'theirs' });
    await watcher().dispatchOnce();
    const mine = await list(account.ownerToken);
    assert.equal(listed(mine.body, started.body.id), undefined);
    const theirs = await list(other.ownerToken);
    assert.ok(listed(theirs.body, started.body.id));
  });

  it('150 concurrent job lists through one API all answer 200', async () => {
    const answers = await Promise.all(Array.from({ length: 150 }, () => list(account.ownerToken, 'limit=100')));
    assert.deepEqual([...new Set(answers.map((res) => res.status))], [200]);
  });
});
