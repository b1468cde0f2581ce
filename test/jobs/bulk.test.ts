import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { call, type CallResult } from '../helpers/http';
import { eventually, getJob, jobUrl, settled, startTestJob } from './jobTestKit';
import { failedResearch, idleTaskQueue, startOfKind } from './replayKit';
import { failingJobContract } from '../workflows/failingJob.contract';
import { harness } from '../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';
import { createActivities } from '../../src/app/activities';
import { createWorker } from '../../src/temporal/worker';

const startBulk = (token: string, body: unknown, base = '/api/jobs') => call('POST', `${base}/bulk`, { token, body });
const getBulk = (token: string, id: string, base = '/api/jobs') => call('GET', jobUrl(id, `${base}/bulk`), { token });

async function finished(token: string, id: string): Promise<CallResult> {
  return eventually(
    () => getBulk(token, id),
    (res) => res.status === 200 && res.body.status !== 'running',
    30_000,
    `bulk operation ${id}`,
  );
}

async function runningSteppedJobs(account: TestAccount, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await startTestJob(account.ownerToken, 'stepped', { steps: 600, stepMs: 100 });
    assert.equal(res.status, 202, res.text);
    ids.push(res.body.id);
  }
  return ids;
}

/** Waits until visibility lists `count` jobs of the filter (it lags a start by up to a second or two). */
async function listed(token: string, query: string, count: number): Promise<void> {
  await eventually(
    () => call('GET', `/api/jobs?${query}&limit=100`, { token }),
    (res) => res.status === 200 && res.body.data.length === count,
    10_000,
    `${count} jobs listed for ${query}`,
  );
}

const cancelAll = (account: TestAccount, ids: string[]) =>
  Promise.all(ids.map((id) => call('POST', `${jobUrl(id)}/cancel`, { token: account.ownerToken })));

/**
 * An app whose bulk operations wait on a task queue no worker polls until `runBulks()` starts one: the bulk's visibility
 * query then runs observably later than its request, as it does on a busy worker.
 */
async function laterBulks(): Promise<{ app: PrivateApp; runBulks(): Promise<void>; close(): Promise<void> }> {
  const taskQueue = idleTaskQueue();
  const app = await startPrivateApp([], { taskQueue });
  let stop = async () => undefined;
  return {
    app,
    async runBulks() {
      const { deps, db, temporalAddress, temporalSecurity, bundle } = harness();
      const { worker, connection } = await createWorker({
        address: temporalAddress,
        security: temporalSecurity,
        namespace: deps.temporal.namespace,
        taskQueue,
        bundle,
        activities: createActivities({ config: deps.config, db, logger: deps.logger }),
      });
      const running = worker.run();
      stop = async () => {
        worker.shutdown();
        await running;
        await connection.close();
      };
    },
    async close() {
      await stop();
      await app.close();
    },
  };
}

describe('jobs API: POST /api/jobs/bulk and GET /api/jobs/bulk/{id}', () => {
  let owner: TestAccount;
  let stranger: TestAccount;

  before(async () => {
    [owner, stranger] = await Promise.all([newAccount('Bulk Co'), newAccount('Other Co')]);
  });

  it("a bulk cancel by filter cancels the account's matching running jobs, counts them, and leaves another account's alone", async () => {
    const mine = await runningSteppedJobs(owner, 3);
    const theirs = await runningSteppedJobs(stranger, 2);
    try {
      await listed(owner.ownerToken, 'kind=test_stepped&status=running', 3);
      const res = await startBulk(owner.ownerToken, { action: 'cancel', filter: { kind: 'test_stepped' } });
      assert.equal(res.status, 202, res.text);
      assert.match(res.body.id, new RegExp(`^jobs-bulk:${owner.accountId}:`));
      assert.equal(res.body.action, 'cancel');
      assert.equal(res.body.status, 'running');
      assert.equal(res.body.total, 3);
      assert.equal(res.headers.get('location'), `/api/jobs/bulk/${res.body.id}`);

      const done = await finished(owner.ownerToken, res.body.id);
      assert.equal(done.body.status, 'completed', done.text);
      assert.deepEqual([done.body.total, done.body.succeeded, done.body.failed], [3, 3, 0]);
      assert.ok(done.body.completed_at);
      for (const id of mine) assert.equal((await settled(owner.ownerToken, id)).body.status, 'canceled');
      for (const id of theirs) assert.equal((await getJob(stranger.ownerToken, id)).body.status, 'running');
      // The operation is a job of the account too.
      const job = await getJob(owner.ownerToken, res.body.id);
      assert.equal(job.body.kind, 'jobs-bulk');
    } finally {
      await cancelAll(stranger, theirs);
      await cancelAll(owner, mine);
    }
  });

  it("a bulk cancel by ids cancels the account's running jobs and counts a foreign, a missing and a closed id as failed", async () => {
    const mine = await runningSteppedJobs(owner, 2);
    const [theirs] = await runningSteppedJobs(stranger, 1);
    const closed = (await startTestJob(owner.ownerToken, 'quick', { value: 'done' })).body.id;
    await settled(owner.ownerToken, closed);
    try {
      const res = await startBulk(owner.ownerToken, {
        action: 'cancel',
        job_ids: [...mine, theirs, `test_stepped:${owner.accountId}:missing`, closed, mine[0]],
      });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.total, 5); // duplicates count once
      const done = await finished(owner.ownerToken, res.body.id);
      assert.equal(done.body.status, 'completed', done.text);
      assert.deepEqual([done.body.total, done.body.succeeded, done.body.failed], [5, 2, 3]);
      for (const id of mine) assert.equal((await settled(owner.ownerToken, id)).body.status, 'canceled');
      assert.equal((await getJob(stranger.ownerToken, theirs)).body.status, 'running');
    } finally {
      await cancelAll(stranger, [theirs]);
      await cancelAll(owner, mine);
    }
  });

  it('a bulk replay by filter replays the failed research runs of the account, each linked to its original', async () => {
    const account = await newAccount('Replay Bulk Co');
    const since = new Date(Date.now() - 1000).toISOString();
    const runs = [await failedResearch(account.accountId, account.ownerToken), await failedResearch(account.accountId, account.ownerToken)];
    const foreign = await failedResearch(stranger.accountId, stranger.ownerToken);
    await listed(account.ownerToken, 'kind=research&status=failed', 2);
    // No kind and no status: the replayable kinds' jobs that ended without a result.
    const res = await startBulk(account.ownerToken, { action: 'replay', filter: { from: since } });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.total, 2);
    const done = await finished(account.ownerToken, res.body.id);
    assert.deepEqual([done.body.status, done.body.total, done.body.succeeded, done.body.failed], ['completed', 2, 2, 0]);
    const list = await eventually(
      () => call('GET', '/api/jobs?kind=research&limit=100', { token: account.ownerToken }),
      (r) => r.body.data.length === 4,
      10_000,
      'the replays listed',
    );
    const replayed = list.body.data.map((j: { replay_of: string | null }) => j.replay_of).filter(Boolean);
    assert.deepEqual(replayed.sort(), runs.map((r) => r.id).sort());
    assert.ok(!replayed.includes(foreign.id));
  });

  it("a bulk replay by ids counts ids that cannot be replayed (another account's, missing) as failed", async () => {
    const old = await failedResearch(owner.accountId, owner.ownerToken);
    const foreign = await failedResearch(stranger.accountId, stranger.ownerToken);
    const res = await startBulk(owner.ownerToken, {
      action: 'replay',
      job_ids: [old.id, foreign.id, `research:${owner.accountId}:missing`],
    });
    assert.equal(res.status, 202, res.text);
    const done = await finished(owner.ownerToken, res.body.id);
    assert.deepEqual([done.body.status, done.body.total, done.body.succeeded, done.body.failed], ['completed', 3, 1, 2]);
  });

  it('a bulk cancel by filter covers the jobs that matched when it was requested: a job started just after keeps running', async () => {
    const account = await newAccount('Bulk Cutoff Co');
    const later = await laterBulks();
    const jobs: string[] = [];
    try {
      jobs.push(...(await runningSteppedJobs(account, 1)));
      await listed(account.ownerToken, 'kind=test_stepped&status=running', 1);
      const res = await later.app.call('POST', '/api/jobs/bulk', {
        token: account.ownerToken,
        body: { action: 'cancel', filter: { kind: 'test_stepped', status: 'running' } },
      });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.total, 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      jobs.push(...(await runningSteppedJobs(account, 1)));
      // The second job is visible, so a filter read without a time bound would take it too.
      await listed(account.ownerToken, 'kind=test_stepped&status=running', 2);
      await later.runBulks();
      const done = await finished(account.ownerToken, res.body.id);
      assert.deepEqual([done.body.status, done.body.total, done.body.succeeded, done.body.failed], ['completed', 1, 1, 0], done.text);
      assert.equal((await settled(account.ownerToken, jobs[0])).body.status, 'canceled');
      assert.equal((await getJob(account.ownerToken, jobs[1])).body.status, 'running');
    } finally {
      await cancelAll(account, jobs);
      await later.close();
    }
  });

  it('a bulk replay by filter covers the jobs that matched when it was requested: a job failed just after is not replayed', async () => {
    const account = await newAccount('Replay Cutoff Co');
    const later = await laterBulks();
    try {
      const before = await failedResearch(account.accountId, account.ownerToken);
      await listed(account.ownerToken, 'kind=research&status=failed', 1);
      const res = await later.app.call('POST', '/api/jobs/bulk', {
        token: account.ownerToken,
        body: { action: 'replay', filter: { kind: 'research', status: 'failed' } },
      });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.total, 1);
      await failedResearch(account.accountId, account.ownerToken);
      await listed(account.ownerToken, 'kind=research&status=failed', 2);
      await later.runBulks();
      const done = await finished(account.ownerToken, res.body.id);
      assert.deepEqual([done.body.status, done.body.total, done.body.succeeded, done.body.failed], ['completed', 1, 1, 0], done.text);
      const list = await eventually(
        () => call('GET', '/api/jobs?kind=research&limit=100', { token: account.ownerToken }),
        (r) => r.body.data.length === 3,
        10_000,
        'the replay listed',
      );
      const replayed = list.body.data.map((j: { replay_of: string | null }) => j.replay_of).filter(Boolean);
      assert.deepEqual(replayed, [before.id]);
    } finally {
      await later.close();
    }
  });

  it('a bulk replay whose filter matches more than 500 jobs answers 422 bulk_too_many_jobs and starts nothing', async () => {
    const account = await newAccount('Many Failures Co');
    const { client, deps } = harness();
    // Failed jobs of a replayable kind, cheaply: the test workflow that fails at once, filed under `research`.
    const failing = { workflowType: failingJobContract.workflowType, jobKind: 'research' };
    for (let i = 0; i < 501; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, 501 - i) }, () => startOfKind(account.accountId, failing, [{ code: 'boom', message: 'failed' }])),
      );
    }
    const query = `AccountId = '${account.accountId}' AND ExecutionStatus = 'Failed'`;
    await eventually(
      () => client.workflowService.countWorkflowExecutions({ namespace: deps.temporal.namespace, query }),
      (res) => Number(res.count) === 501,
      30_000,
      '501 failed jobs',
    );
    const res = await startBulk(account.ownerToken, { action: 'replay', filter: { kind: 'research' } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.code, 'bulk_too_many_jobs');
    assert.deepEqual([res.body.matched, res.body.max], [501, 500]);
    const bulkJobs = await call('GET', '/api/jobs?kind=jobs-bulk', { token: account.ownerToken });
    assert.deepEqual(bulkJobs.body.data, []);
  });

  it('a bulk replay filtered on a kind that cannot be replayed answers 409 job_not_replayable', async () => {
    const res = await startBulk(owner.ownerToken, { action: 'replay', filter: { kind: 'email-batch' } });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'job_not_replayable');
  });

  it("another account's bulk operation, and a missing one, answer 404 bulk_operation_not_found", async () => {
    const res = await startBulk(owner.ownerToken, { action: 'cancel', filter: { kind: 'test_nothing' } });
    assert.equal(res.status, 202, res.text);
    const foreign = await getBulk(stranger.ownerToken, res.body.id);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'bulk_operation_not_found');
    // A job of the account that is no bulk operation is not one either.
    const job = (await startTestJob(owner.ownerToken, 'quick', { value: 'x' })).body.id;
    assert.equal((await getBulk(owner.ownerToken, job)).body.code, 'bulk_operation_not_found');
    const missing = await getBulk(owner.ownerToken, `jobs-bulk:${owner.accountId}:missing`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'bulk_operation_not_found');
    const done = await finished(owner.ownerToken, res.body.id);
    assert.deepEqual([done.body.total, done.body.succeeded, done.body.failed], [0, 0, 0]);
  });

  it('agent keys: POST needs jobs:write, GET jobs:read', async () => {
    const reader = await newAgentKey(owner.accountId, ['jobs:read']);
    const writer = await newAgentKey(owner.accountId, ['jobs:read', 'jobs:write']);
    const body = { action: 'cancel', filter: { kind: 'test_nothing' } };
    assert.equal((await startBulk(reader, body, '/api/agent/jobs')).status, 403);
    const res = await startBulk(writer, body, '/api/agent/jobs');
    assert.equal(res.status, 202, res.text);
    assert.equal(res.headers.get('location'), `/api/agent/jobs/bulk/${res.body.id}`);
    assert.equal((await getBulk(reader, res.body.id, '/api/agent/jobs')).status, 200);
  });

  it('bad requests answer 400 validation_failed: neither or both of filter and job_ids, an empty filter, from not before to, a status the action does not act on, too many ids', async () => {
    const bad: unknown[] = [
      { action: 'cancel' },
      { action: 'cancel', filter: { kind: 'x' }, job_ids: ['a'] },
      { action: 'cancel', filter: {} },
      { action: 'cancel', job_ids: [] },
      { action: 'cancel', job_ids: Array.from({ length: 501 }, (_, i) => `job-${i}`) },
      { action: 'cancel', filter: { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' } },
      { action: 'cancel', filter: { from: 'yesterday' } },
      { action: 'cancel', filter: { status: 'failed' } },
      { action: 'replay', filter: { status: 'running' } },
      { action: 'replay', filter: { status: 'completed' } },
      { action: 'archive', filter: { kind: 'research' } },
      { action: 'cancel', filter: { kind: 'research', owner: 'x' } },
    ];
    for (const body of bad) {
      const res = await startBulk(owner.ownerToken, body);
      assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)} → ${res.status}`);
      assert.equal(res.body.code, 'validation_failed');
    }
  });
});
