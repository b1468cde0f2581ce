import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { startReplacementWorker, startWorkerChild, type WorkerChild } from '../../helpers/workerProcess';
import { eventually } from '../../jobs/jobTestKit';
import { removeTempDirs } from '../../runtime/child';
import { draft, modelConfig, newDeal, newGrid, suffix } from './caseStudyKit';

describe('case-study draft: kill the worker mid-draft', function () {
  this.timeout(180_000);
  let model: ModelSimulator;
  let app: PrivateApp;
  let worker: WorkerChild | undefined;
  let replacement: { stop(): Promise<void> } | undefined;
  const taskQueue = `case-study-kill-${randomBytes(4).toString('hex')}`;

  before(async () => {
    model = await startModelSimulator();
    app = await startPrivateApp([], { taskQueue, config: { ...modelConfig(model), CASE_STUDY_WAIT_SECONDS: 0 } });
  });
  after(async () => {
    await worker?.kill();
    await replacement?.stop();
    await app?.close();
    await model?.stop();
    await removeTempDirs();
  });

  it('a worker killed while the model writes is replaced; the same run finishes with one item and one artifact', async () => {
    const config = modelConfig(model);
    worker = await startWorkerChild(taskQueue, config);
    const account = await newAccount('Case kill co');
    const deal = await newDeal(app, account.ownerToken);
    const grid = await newGrid(app, account.ownerToken);

    model.delayMs = 4_000;
    const calls = model.calls;
    const started = await draft(app, account.ownerToken, { deal_id: deal.id, grid_id: grid.id }, { key: `kill-${suffix()}` });
    assert.equal(started.status, 202, started.text);
    const location = started.headers.get('location')!;
    await eventually(
      async () => model.calls,
      (n) => n > calls,
      30_000,
      'the child to ask the model',
    );
    await worker.kill();
    model.delayMs = 100;
    replacement = await startReplacementWorker(taskQueue, config);

    const done = await eventually(
      async () => (await app.call('GET', location, { token: account.ownerToken })).body,
      (job) => job.status !== 'running',
      120_000,
      'the draft to finish on the replacement worker',
    );
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const items = await harness().db('content_items').where({ account_id: account.accountId, content_type: 'case_study' });
    assert.equal(items.length, 1);
    assert.equal(items[0].id, done.result.id);
    const artifacts = await harness().db('kb_artifacts').where({ account_id: account.accountId, artifact_type: 'case_study' });
    assert.equal(artifacts.length, 1);
  });
});
