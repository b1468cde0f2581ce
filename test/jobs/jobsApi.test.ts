import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { call } from '../helpers/http';
import { harness } from '../helpers/harness';
import { jobSearchAttributes } from '../../src/temporal/jobs';
import { eventually, getJob, jobUrl, settled, startTestJob } from './jobTestKit';
import { quickJobContract } from '../workflows/quickJob.contract';

describe('jobs API: GET /api/jobs/{id} and cancel', () => {
  let owner: TestAccount;
  let stranger: TestAccount;

  before(async () => {
    [owner, stranger] = await Promise.all([newAccount('Jobs Co'), newAccount('Other Co')]);
  });

  it('a running job shows its progress from the progress query', async () => {
    const started = await startTestJob(owner.ownerToken, 'stepped', { steps: 40, stepMs: 150 });
    assert.equal(started.status, 202);
    const id = started.body.id;
    const seen = await eventually(
      () => getJob(owner.ownerToken, id),
      (res) => res.body.progress?.done >= 1,
      8_000,
      'progress',
    );
    assert.equal(seen.body.status, 'running');
    assert.equal(seen.body.kind, 'test_stepped');
    assert.equal(seen.body.progress.phase, 'working');
    assert.equal(seen.body.progress.total, 40);
    assert.equal(seen.body.closed_at, null);
    await call('POST', `${jobUrl(id)}/cancel`, { token: owner.ownerToken });
  });

  it('a completed job shows its result, timestamps and a Temporal UI link', async () => {
    const started = await startTestJob(owner.ownerToken, 'quick', { value: 'hello' });
    const done = await settled(owner.ownerToken, started.body.id);
    assert.equal(done.body.status, 'completed');
    assert.equal(done.body.result.value, 'hello');
    assert.equal(done.body.error, null);
    assert.equal(done.body.progress, null);
    assert.ok(Date.parse(done.body.closed_at) >= Date.parse(done.body.created_at));
    const { namespace, uiUrl } = harness().deps.temporal;
    assert.equal(
      done.body.links.temporal_ui,
      `${uiUrl}/namespaces/${namespace}/workflows/${encodeURIComponent(done.body.id)}/${done.body.run_id}/history`,
    );
  });

  it('a job that fails with a coded ApplicationFailure shows {code, message}', async () => {
    const started = await startTestJob(owner.ownerToken, 'failing', {
      code: 'quota_exceeded',
      message: 'monthly quota reached',
      status: 429,
    });
    const done = await settled(owner.ownerToken, started.body.id);
    assert.equal(done.body.status, 'failed');
    assert.deepEqual(done.body.error, { code: 'quota_exceeded', message: 'monthly quota reached' });
    assert.equal(done.body.result, null);
  });

  it('a job that fails without a stable code shows job_failed and hides the failure text', async () => {
    const started = await startTestJob(owner.ownerToken, 'failing', { code: null, message: 'password=hunter2 rejected by db' });
    const done = await settled(owner.ownerToken, started.body.id);
    assert.equal(done.body.status, 'failed');
    assert.equal(done.body.error.code, 'job_failed');
    assert.doesNotMatch(done.text, /hunter2/);
  });

  it('cancel stops a running job, which reports canceled; a second cancel answers 409 job_not_running', async () => {
    const started = await startTestJob(owner.ownerToken, 'stepped', { steps: 100, stepMs: 200 });
    const id = started.body.id;
    const canceled = await call('POST', `${jobUrl(id)}/cancel`, { token: owner.ownerToken });
    assert.equal(canceled.status, 202);
    assert.equal(canceled.body.id, id);
    assert.ok(canceled.body.cancel_requested || canceled.body.status === 'canceled');
    const done = await settled(owner.ownerToken, id);
    assert.equal(done.body.status, 'canceled');
    const again = await call('POST', `${jobUrl(id)}/cancel`, { token: owner.ownerToken });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'job_not_running');
  });

  it('a job of another account answers 404 job_not_found to get and cancel, and keeps running', async () => {
    const started = await startTestJob(owner.ownerToken, 'stepped', { steps: 50, stepMs: 200 });
    const id = started.body.id;
    const read = await getJob(stranger.ownerToken, id);
    assert.equal(read.status, 404);
    assert.equal(read.body.code, 'job_not_found');
    const cancel = await call('POST', `${jobUrl(id)}/cancel`, { token: stranger.ownerToken });
    assert.equal(cancel.status, 404);
    assert.equal(cancel.body.code, 'job_not_found');
    const still = await getJob(owner.ownerToken, id);
    assert.equal(still.body.status, 'running');
    assert.equal(still.body.cancel_requested, false);
    await call('POST', `${jobUrl(id)}/cancel`, { token: owner.ownerToken });
  });

  it('ownership comes from the AccountId search attribute, not the id: an id naming another account answers 404 to it', async () => {
    // A workflow whose id names the stranger's account but whose AccountId is the owner's.
    const id = `test_quick:${stranger.accountId}:forged-${Date.now()}`;
    await harness().client.workflow.start(quickJobContract.workflowType, {
      workflowId: id,
      taskQueue: harness().taskQueue,
      args: [{ value: 'x' }],
      typedSearchAttributes: jobSearchAttributes('test_quick', owner.accountId),
    });
    const asStranger = await getJob(stranger.ownerToken, id);
    assert.equal(asStranger.status, 404);
    assert.equal(asStranger.body.code, 'job_not_found');
    assert.equal((await getJob(owner.ownerToken, id)).status, 200);
  });

  it('a workflow without an AccountId (not a job) answers 404', async () => {
    const id = `plain-workflow-${Date.now()}`;
    await harness().client.workflow.start(quickJobContract.workflowType, {
      workflowId: id,
      taskQueue: harness().taskQueue,
      args: [{ value: 'x' }],
    });
    assert.equal((await getJob(owner.ownerToken, id)).status, 404);
  });

  it('a missing id and an id that cannot be a workflow id both answer 404 job_not_found', async () => {
    const missing = await getJob(owner.ownerToken, `test_quick:${owner.accountId}:nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'job_not_found');
    const tooLong = await getJob(owner.ownerToken, 'x'.repeat(1200));
    assert.equal(tooLong.status, 404);
    const spaced = await getJob(owner.ownerToken, 'has a space');
    assert.equal(spaced.status, 404);
    const cancelMissing = await call('POST', `${jobUrl('no:such:job')}/cancel`, { token: owner.ownerToken });
    assert.equal(cancelMissing.status, 404);
  });

  it('agent keys read with jobs:read and cancel with jobs:write', async () => {
    const started = await startTestJob(owner.ownerToken, 'stepped', { steps: 50, stepMs: 200 });
    const id = started.body.id;
    const reader = await newAgentKey(owner.accountId, ['jobs:read']);
    const read = await getJob(reader, id, '/api/agent/jobs');
    assert.equal(read.status, 200);
    assert.equal(read.body.id, id);
    const denied = await call('POST', `${jobUrl(id, '/api/agent/jobs')}/cancel`, { token: reader });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 'missing_permission');
    const writer = await newAgentKey(owner.accountId, ['jobs:write']);
    const canceled = await call('POST', `${jobUrl(id, '/api/agent/jobs')}/cancel`, { token: writer });
    assert.equal(canceled.status, 202);
    const noRead = await newAgentKey(owner.accountId, ['crm:read']);
    assert.equal((await getJob(noRead, id, '/api/agent/jobs')).status, 403);
    const strangerKey = await newAgentKey(stranger.accountId, ['jobs:read']);
    assert.equal((await getJob(strangerKey, id, '/api/agent/jobs')).status, 404);
  });

  it('a job route without a session answers 401', async () => {
    assert.equal((await call('GET', '/api/jobs/anything')).status, 401);
  });
});
