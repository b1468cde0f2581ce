import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createActivities } from '../../../src/app/activities';
import { startImageSimulator, type ImageSimulator } from '../../../src/sandbox/images';
import { createWorker } from '../../../src/temporal/worker';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { eventually } from '../../jobs/jobTestKit';
import { childEnv, REPO_ROOT, removeTempDirs, tempDir } from '../../runtime/child';
import { imageConfig, paragraph, suffix, unitsOf } from './imageRunKit';

// The research test's worker child runs any of the product's activities with the config it is given.
const CHILD = path.join(REPO_ROOT, 'test/research/workerChild.ts');

function spawnWorker(env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exited: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, output: () => output, exited };
}

describe('image run: kill the worker mid-run', function () {
  this.timeout(180_000);
  let images: ImageSimulator;
  let app: PrivateApp;
  let worker: ReturnType<typeof spawnWorker> | undefined;
  let replacement: { stop(): Promise<void> } | undefined;
  const taskQueue = `images-kill-${randomBytes(4).toString('hex')}`;

  before(async () => {
    images = await startImageSimulator();
    app = await startPrivateApp([], { taskQueue, config: { ...imageConfig(images, null), IMAGE_WAIT_SECONDS: 0 } });
  });

  after(async () => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await replacement?.stop();
    await app?.close();
    await images?.stop();
    await removeTempDirs();
  });

  it('no double charge after a worker kill: the killed render is retried on another worker and every image is charged once', async () => {
    const h = harness();
    const config = imageConfig(images, null);
    const dir = await tempDir('wy-images-');
    const bundlePath = path.join(dir, 'workflows.js');
    await writeFile(bundlePath, h.bundle.code);
    worker = spawnWorker(
      childEnv({
        DATABASE_URL: h.databaseUrl,
        TEMPORAL_ADDRESS: h.temporalAddress,
        TEMPORAL_NAMESPACE: h.deps.temporal.namespace,
        RESEARCH_TASK_QUEUE: taskQueue,
        RESEARCH_BUNDLE_PATH: bundlePath,
        RESEARCH_CONFIG: JSON.stringify(config),
        LOG_LEVEL: 'error',
      }),
    );
    await eventually(
      async () => worker!.output(),
      (out) => out.includes('worker ready') || worker!.child.exitCode !== null,
      60_000,
      'the worker child',
    );
    assert.ok(worker.output().includes('worker ready'), worker.output());

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
    worker.child.kill('SIGKILL');
    await worker.exited;
    images.delayMs = 200;

    const { worker: fresh, connection } = await createWorker({
      address: h.temporalAddress,
      namespace: h.deps.temporal.namespace,
      taskQueue,
      bundle: h.bundle,
      activities: createActivities({ config: { ...h.deps.config, ...config }, db: h.db, logger: h.deps.logger }),
    });
    const run = fresh.run();
    replacement = {
      stop: async () => {
        fresh.shutdown();
        await run;
        await connection.close();
      },
    };

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
