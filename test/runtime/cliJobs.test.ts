import assert from 'node:assert/strict';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { failedResearch } from '../jobs/replayKit';
import { eventually, jobUrl, settled, startTestJob } from '../jobs/jobTestKit';
import { childEnv, removeTempDirs, runMain, tempDir } from './child';

/** The CLI against the harness's database and Temporal, on the harness worker's task queue. */
async function cliEnv() {
  const h = harness();
  return childEnv({
    DATABASE_URL: h.databaseUrl,
    SECRET_HASH_KEY: h.deps.secretHashKey,
    TEMPORAL_ADDRESS: h.temporalAddress,
    TEMPORAL_NAMESPACE: h.deps.temporal.namespace,
    TEMPORAL_TASK_QUEUE: h.taskQueue,
    TEMPORAL_UI_URL: h.deps.temporal.uiUrl,
    DATA_DIR: await tempDir('wy-cli-jobs-'),
  });
}

const jobs = async (args: string[]) => runMain(['jobs', ...args], await cliEnv());

describe('command line: jobs list, get, cancel and replay', function () {
  this.timeout(60_000);
  let account: TestAccount;
  before(async () => {
    account = await newAccount('Cli Jobs Co');
  });
  after(removeTempDirs);

  it('jobs list --json prints what GET /api/jobs answers, with the same filters', async () => {
    const failed = await failedResearch(account.accountId, account.ownerToken);
    const result = await jobs(['list', '--account', account.accountId, '--kind', 'research', '--status', 'failed', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const api = await call('GET', '/api/jobs?kind=research&status=failed', { token: account.ownerToken });
    assert.deepEqual(JSON.parse(result.stdout), api.body);
    assert.ok(api.body.data.some((j: { id: string }) => j.id === failed.id));
    const text = await jobs(['list', '--account', account.accountId]);
    assert.match(text.stdout, new RegExp(`^${failed.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  failed  closed `, 'm'));
  });

  it('jobs get --json prints what GET /api/jobs/{id} answers; jobs replay starts it again as a new job', async () => {
    const failed = await failedResearch(account.accountId, account.ownerToken);
    const got = await jobs(['get', '--account', account.accountId, '--job', failed.id, '--json']);
    assert.equal(got.code, 0, got.stderr);
    assert.deepEqual(JSON.parse(got.stdout), (await call('GET', jobUrl(failed.id), { token: account.ownerToken })).body);

    const replayed = await jobs(['replay', '--account', account.accountId, '--job', failed.id, '--json']);
    assert.equal(replayed.code, 0, replayed.stderr);
    const replay = JSON.parse(replayed.stdout);
    assert.notEqual(replay.id, failed.id);
    const listed = await eventually(
      () => call('GET', '/api/jobs?kind=research', { token: account.ownerToken }),
      (res) => res.body.data.some((j: { id: string; replay_of: string | null }) => j.id === replay.id && j.replay_of === failed.id),
      10_000,
      'the replay listed with replay_of',
    );
    assert.ok(listed);
  });

  it('jobs cancel stops a running job', async () => {
    const started = await startTestJob(account.ownerToken, 'stepped', { steps: 100, stepMs: 200 });
    assert.equal(started.status, 202, started.text);
    const result = await jobs(['cancel', '--account', account.accountId, '--job', started.body.id]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`asked .* to stop`));
    assert.equal((await settled(account.ownerToken, started.body.id)).body.status, 'canceled');
  });

  it("another account's job is a missing job: exit 1 with job_not_found, and nothing is done to it", async () => {
    const other = await newAccount('Cli Jobs Other Co');
    const started = await startTestJob(other.ownerToken, 'stepped', { steps: 100, stepMs: 200 });
    try {
      for (const action of ['get', 'cancel', 'replay']) {
        const result = await jobs([action, '--account', account.accountId, '--job', started.body.id]);
        assert.equal(result.code, 1, `${action}: ${result.stdout}`);
        assert.match(result.stderr, /^error: job_not_found: /m);
      }
      assert.equal((await call('GET', jobUrl(started.body.id), { token: other.ownerToken })).body.status, 'running');
    } finally {
      await call('POST', `${jobUrl(started.body.id)}/cancel`, { token: other.ownerToken });
    }
  });

  it('a bad filter or a missing --account exits 2 naming the flag', async () => {
    const badStatus = await jobs(['list', '--account', account.accountId, '--status', 'sleeping']);
    assert.equal(badStatus.code, 2);
    assert.match(badStatus.stderr, /--status/);
    const badLimit = await jobs(['list', '--account', account.accountId, '--limit', '1000']);
    assert.equal(badLimit.code, 2);
    assert.match(badLimit.stderr, /--limit/);
    const noAccount = await jobs(['get', '--job', 'x']);
    assert.equal(noAccount.code, 2);
    assert.match(noAccount.stderr, /--account is required/);
  });
});
