import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startImageSimulator, type ImageSimulator } from '../../../src/sandbox/images';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { startReplacementWorker, startWorkerChild, type WorkerChild } from '../../helpers/workerProcess';
import { eventually } from '../../jobs/jobTestKit';
import { removeTempDirs } from '../../runtime/child';
import { imageConfig, paragraph, suffix, unitsOf } from './imageRunKit';

describe('image run: kill the worker mid-run', function () {
  this.timeout(180_000);
  let images: ImageSimulator;
  let app: PrivateApp;
  let worker: WorkerChild | undefined;
  let replacement: { stop(): Promise<void> } | undefined;
  const taskQueue = `images-kill-${randomBytes(4).toString('hex')}`;

  before(async () => {
    images = await startImageSimulator();
    app = await startPrivateApp([], { taskQueue, config: { ...imageConfig(images, null), IMAGE_WAIT_SECONDS: 0 } });
  });

  after(async () => {
    await worker?.kill();
    await replacement?.stop();
    await app?.close();
    await images?.stop();
    await removeTempDirs();
  });

  it('no double charge after a worker kill: the killed render is retried on another worker and every image is charged once', async () => {
    const h = harness();
    const config = imageConfig(images, null);
    worker = await startWorkerChild(taskQueue, config);

    const account = await newAccount('Kill Co');
    const body = ['<h2>First section heading</h2>', paragraph('first'), '<h2>Second section heading</h2>', paragraph('second')].join('');
    const created = await app.call('POST', '/api/marketing/content', { token: account.ownerToken, body: { title: 'Kill test', body } });
    assert.equal(created.status, 201, created.text);
    const contentId = created.body.id;

    images.delayMs = 3_000;
    const started = await app.call('POST', `/api/marketing/content/${contentId}/images`, {
      token: account.ownerToken,
      body: {},
      headers: { 'Idempotency-Key': `kill-${suffix()}` },
    });
    assert.equal(started.status, 202, started.text);
    const location = started.headers.get('location')!;

    // The hero is rendering in the child when it dies: its unit is reserved.
    await eventually(
      async () => images.inFlight,
      (n) => n >= 1,
      30_000,
      'the child to start a render',
    );
    assert.equal((await unitsOf(account.accountId)).reserved, 1);
    await worker.kill();
    images.delayMs = 200;

    replacement = await startReplacementWorker(taskQueue, config);

    const done = await eventually(
      async () => (await app.call('GET', location, { token: account.ownerToken })).body,
      (job) => job.status !== 'running',
      120_000,
      'the run to finish on the replacement worker',
    );
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const result = done.result;
    assert.equal(result.assets.length, 3);
    assert.equal(result.charged, 3);
    // The killed render asked the provider once more than there are images, yet the account paid for three.
    assert.ok(images.calls >= 4, `calls ${images.calls}`);
    assert.deepEqual(await unitsOf(account.accountId), { reserved: 0, consumed: 3, refunded: 0 });
    const library = await h.db('media_assets').where({ account_id: account.accountId }).count({ count: '*' }).first();
    assert.equal(Number((library as { count: string }).count), 3);
  });
});
