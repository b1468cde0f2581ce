import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { queueWorkers } from '../../src/temporal/taskQueueWorkers';
import { workerFingerprint } from '../../src/temporal/workerFingerprint';
import { harness } from '../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';
import { eventually } from '../jobs/jobTestKit';
import { childEnv, removeTempDirs, RunningMain, tempDir } from './child';

// Real `worker` processes (the product's command) on a task queue of their own; the API that reports on them is the
// real app on that queue. Each test has its own queue: Temporal keeps a stopped worker among the pollers for minutes.

const secret = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;
const commerceKey = () => randomBytes(32).toString('base64');

/** Every provider variable a test sets, so the runner's own environment cannot leak one in. */
const NO_PROVIDERS = {
  MODEL_API_KEY: '',
  IMAGE_API_KEY: '',
  SEARCH_API_KEY: '',
  ANALYTICS_API_KEY: '',
  SMTP_URL: '',
  EMAIL_DNS_SERVERS: '',
  EMAIL_RETURN_PATH_DOMAIN: '',
  COMMERCE_TOKEN_ENCRYPTION_KEY: '',
  COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS: '',
  COMMERCE_PARTNER_API_TOKEN: '',
  SITE_PLATFORM_CLIENT_ID: '',
  SITE_PLATFORM_CLIENT_SECRET: '',
  SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: '',
};

describe('worker provider fingerprints', function () {
  this.timeout(180_000);
  const running: RunningMain[] = [];
  const apps: PrivateApp[] = [];
  let bundlePath: string;

  before(async () => {
    bundlePath = path.join(await tempDir('wy-fingerprint-'), 'workflows.js');
    await writeFile(bundlePath, harness().bundle.code);
  });

  afterEach(async () => {
    await Promise.all([...running.splice(0).map((w) => w.kill()), ...apps.splice(0).map((a) => a.close())]);
  });

  after(removeTempDirs);

  async function startWorker(taskQueue: string, providers: Record<string, string>): Promise<RunningMain> {
    const h = harness();
    const worker = new RunningMain(
      ['worker'],
      childEnv({
        DATABASE_URL: h.databaseUrl,
        TEMPORAL_ADDRESS: h.temporalAddress,
        TEMPORAL_NAMESPACE: h.deps.temporal.namespace,
        TEMPORAL_TASK_QUEUE: taskQueue,
        SECRET_HASH_KEY: h.deps.secretHashKey,
        WORKFLOW_BUNDLE_PATH: bundlePath,
        METRICS_PORT: '0',
        DATA_DIR: await tempDir('wy-fingerprint-worker-'),
        ...NO_PROVIDERS,
        ...providers,
      }),
    );
    running.push(worker);
    await worker.waitFor(/"msg":"worker running"/, 90_000);
    return worker;
  }

  async function appOn(taskQueue: string): Promise<PrivateApp> {
    const app = await startPrivateApp([], { taskQueue });
    apps.push(app);
    return app;
  }

  const gaugeOf = (metrics: string, taskQueue: string) =>
    metrics.match(new RegExp(`^workyard_worker_fingerprints\\{task_queue="${taskQueue}"\\} (\\d+)$`, 'm'))?.[1];

  it('two workers with other provider settings on one queue: the second warns naming the providers, readyz reports both fingerprints without failing, the metric says 2, and no secret shows anywhere', async () => {
    const taskQueue = `fp-differ-${randomBytes(4).toString('hex')}`;
    const modelKey = secret('sk-');
    const relayPassword = secret('pw');
    const cipherKey = commerceKey();
    const relay = `smtp://relay-user:${relayPassword}@127.0.0.1:2525`;
    const full = await startWorker(taskQueue, { MODEL_API_KEY: modelKey, COMMERCE_TOKEN_ENCRYPTION_KEY: cipherKey, SMTP_URL: relay });
    const partial = await startWorker(taskQueue, { SMTP_URL: relay });

    assert.match(partial.stdout, /WARNING: task queue \\"fp-differ-[0-9a-f]+\\" is polled by workers with other provider settings/);
    assert.match(partial.stdout, /1 worker with fingerprint [0-9a-f]{12} \(differs in model, commerce\)/);
    assert.doesNotMatch(full.stdout, /WARNING/, 'the first worker had no other worker to disagree with');
    const fingerprintsLogged = [full, partial].map((w) => w.stdout.match(/worker provider fingerprint ([0-9a-f]{12})/)?.[1]);
    assert.ok(fingerprintsLogged[0] && fingerprintsLogged[1] && fingerprintsLogged[0] !== fingerprintsLogged[1], fingerprintsLogged.join());

    const app = await appOn(taskQueue);
    const ready = await eventually(
      () => app.call('GET', '/readyz'),
      (res) => res.body?.checks?.workers?.fingerprints?.length === 2,
      20_000,
      'both fingerprints in readyz',
    );
    assert.equal(ready.status, 200, 'disagreeing workers do not make the API unready');
    assert.equal(ready.body.ok, true);
    const workers = ready.body.checks.workers;
    assert.equal(workers.task_queue, taskQueue);
    assert.equal(workers.disagree, true);
    assert.deepEqual(workers.fingerprints.map((f: { fingerprint: string }) => f.fingerprint).sort(), [...fingerprintsLogged].sort());
    assert.deepEqual(
      workers.fingerprints.map((f: { workers: number }) => f.workers),
      [1, 1],
    );
    assert.deepEqual(workers.differing, ['commerce', 'model']);
    assert.equal(ready.body.warnings.length, 1);
    assert.match(ready.body.warnings[0], /carry 2 provider fingerprints .*differing in commerce, model/);

    const metrics = await app.call('GET', '/metrics');
    assert.equal(gaugeOf(metrics.text, taskQueue), '2');

    const identities = JSON.stringify(await queueWorkers(harness().client, harness().deps.temporal.namespace, taskQueue));
    assert.match(identities, /workyard\/[0-9a-f]{12}/);
    for (const value of [modelKey, relayPassword, cipherKey]) {
      for (const [where, text] of [
        ['readyz', ready.text],
        ['metrics', metrics.text],
        ['the worker identities', identities],
        ['the first worker log', full.stdout + full.stderr],
        ['the second worker log', partial.stdout + partial.stderr],
      ]) {
        assert.ok(!text.includes(value), `a secret value appears in ${where}`);
      }
    }
  });

  it('two workers with the same providers (their keys differ) share one fingerprint: readyz agrees, the metric says 1 and neither warns', async () => {
    const taskQueue = `fp-agree-${randomBytes(4).toString('hex')}`;
    const [first, second] = await Promise.all(
      [1, 2].map(() => startWorker(taskQueue, { MODEL_API_KEY: secret('sk-'), COMMERCE_TOKEN_ENCRYPTION_KEY: commerceKey() })),
    );

    const app = await appOn(taskQueue);
    const ready = await eventually(
      () => app.call('GET', '/readyz'),
      (res) => res.body?.checks?.workers?.fingerprints?.[0]?.workers === 2,
      20_000,
      'both workers in readyz',
    );
    assert.equal(ready.status, 200);
    assert.equal(ready.body.checks.workers.fingerprints.length, 1);
    assert.equal(ready.body.checks.workers.disagree, false);
    assert.deepEqual(ready.body.checks.workers.differing, []);
    assert.deepEqual(ready.body.warnings, []);
    assert.equal(gaugeOf((await app.call('GET', '/metrics')).text, taskQueue), '1');
    for (const worker of [first, second]) assert.doesNotMatch(worker.stdout, /WARNING/);
  });

  it('readyz warns, without failing, when no worker polls the task queue, and the metric says 0', async () => {
    const taskQueue = `fp-none-${randomBytes(4).toString('hex')}`;
    const app = await appOn(taskQueue);
    const ready = await app.call('GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body.checks.workers.fingerprints, []);
    assert.deepEqual(ready.body.warnings, [`no worker polls task queue "${taskQueue}": jobs wait until one does`]);
    assert.equal(gaugeOf((await app.call('GET', '/metrics')).text, taskQueue), '0');
  });

  it('a fingerprint names providers as set or unset and changes with them, never with the value of a key', () => {
    const base = { ...NO_PROVIDERS, NODE_ENV: 'test' };
    const keyA = secret('sk-');
    const withKeyA = workerFingerprint(loadConfig({ ...base, MODEL_API_KEY: keyA, SMTP_URL: `smtps://u:${keyA}@relay.test:465` }));
    const withKeyB = workerFingerprint(loadConfig({ ...base, MODEL_API_KEY: secret('sk-'), SMTP_URL: 'smtps://u:other@relay.test:465' }));
    const without = workerFingerprint(loadConfig(base));
    assert.match(withKeyA.fingerprint, /^[0-9a-f]{12}$/);
    assert.equal(withKeyA.fingerprint, withKeyB.fingerprint);
    assert.notEqual(withKeyA.fingerprint, without.fingerprint);
    assert.equal(withKeyA.providers.model.configured, true);
    assert.equal(without.providers.model.configured, false);
    assert.deepEqual(withKeyA.providers.smtp_relay, { configured: true, choices: { scheme: 'smtps' } });
    assert.ok(!JSON.stringify(withKeyA).includes(keyA));
  });
});
