import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createDb, migrateLatest, type Knex } from '../../src/db/knex';
import { createScratchDatabase, type ScratchDatabase } from '../../src/dev/scratchDatabase';
import { markerKey } from '../../src/temporal/deploymentMarker';
import { readDeploymentId } from '../../src/temporal/deploymentStore';
import { harness } from '../helpers/harness';
import { childEnv, removeTempDirs, runMain, RunningMain, tempDir } from '../runtime/child';

// The harness's database and a second one, each a deployment; `temporal setup`, `worker` and `api` run as the CLI does.

const newNamespace = () => `wy-marker-${randomBytes(4).toString('hex')}`;
const newQueue = () => `marker-${randomBytes(4).toString('hex')}`;

async function markerOn(namespace: string, taskQueue: string): Promise<string | undefined> {
  const { namespaceInfo } = await harness().client.workflowService.describeNamespace({ namespace });
  return namespaceInfo?.data?.[markerKey(taskQueue)];
}

describe('deployment marker on the Temporal namespace', function () {
  this.timeout(180_000);
  let second: ScratchDatabase;
  let secondDb: Knex;
  let firstId: string;
  let secondId: string;
  let bundlePath: string;
  const running: RunningMain[] = [];

  before(async () => {
    second = await createScratchDatabase('workyard_marker');
    secondDb = createDb(second.url, 2);
    await migrateLatest(secondDb);
    firstId = (await readDeploymentId(harness().db))!;
    secondId = (await readDeploymentId(secondDb))!;
    bundlePath = path.join(await tempDir('wy-marker-'), 'workflows.js');
    await writeFile(bundlePath, harness().bundle.code);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.kill()));
  });

  after(async () => {
    await secondDb?.destroy();
    await second?.drop();
    await removeTempDirs();
  });

  async function envFor(namespace: string, taskQueue: string, databaseUrl?: string) {
    const h = harness();
    return childEnv({
      TEMPORAL_ADDRESS: h.temporalAddress,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      DATABASE_URL: databaseUrl,
      SECRET_HASH_KEY: h.deps.secretHashKey,
      WORKFLOW_BUNDLE_PATH: bundlePath,
      METRICS_PORT: '0',
      PORT: '0',
      DATA_DIR: await tempDir('wy-marker-run-'),
    });
  }

  it('each database is a deployment of its own', () => {
    assert.match(firstId, /^[0-9a-f-]{36}$/);
    assert.match(secondId, /^[0-9a-f-]{36}$/);
    assert.notEqual(firstId, secondId);
  });

  it('temporal setup records the database as the owner of the task queue on a fresh namespace, prints it, and a rerun keeps it', async () => {
    const [namespace, taskQueue] = [newNamespace(), newQueue()];
    const env = await envFor(namespace, taskQueue, harness().databaseUrl);
    const first = await runMain(['temporal', 'setup'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      new RegExp(`^deployment marker workyard\\.deployment\\.${taskQueue}: recorded deployment ${firstId} \\(this database\\)$`, 'm'),
    );
    assert.equal(await markerOn(namespace, taskQueue), firstId);

    const again = await runMain(['temporal', 'setup'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`deployment ${firstId} \\(this database\\), already recorded`));
    const { config } = await harness().client.workflowService.describeNamespace({ namespace });
    assert.equal(Number(config?.workflowExecutionRetentionTtl?.seconds), 7 * 86_400, 'recording the marker changed the retention');
  });

  it("a worker or an API of another database is refused on a deployment's namespace and task queue, naming both ids and the fix", async () => {
    const [namespace, taskQueue] = [newNamespace(), newQueue()];
    const setup = await runMain(['temporal', 'setup'], await envFor(namespace, taskQueue, harness().databaseUrl));
    assert.equal(setup.code, 0, setup.stderr);

    const otherEnv = await envFor(namespace, taskQueue, second.url);
    for (const command of ['worker', 'api']) {
      const result = await runMain([command], otherEnv);
      assert.equal(result.code, 1, `${command}: ${result.stdout}${result.stderr}`);
      const message = result.stderr;
      assert.match(message, new RegExp(`task queue "${taskQueue}" of namespace "${namespace}" on ${harness().temporalAddress}`));
      assert.match(message, new RegExp(`belongs to deployment ${firstId}`));
      assert.match(message, new RegExp(`this database is deployment ${secondId}`));
      assert.match(message, /its own TEMPORAL_TASK_QUEUE or TEMPORAL_NAMESPACE/);
      assert.match(message, /npm run cli -- temporal setup --claim/);
      assert.doesNotMatch(message, /\n\s+at /, `${command}: a message, not a stack trace`);
    }
    assert.equal(await markerOn(namespace, taskQueue), firstId);

    const refusedSetup = await runMain(['temporal', 'setup'], otherEnv);
    assert.equal(refusedSetup.code, 1, refusedSetup.stdout);
    assert.match(refusedSetup.stderr, /run this command again with --claim/);
    assert.equal(await markerOn(namespace, taskQueue), firstId);
  });

  it('temporal setup --claim hands the task queue to this database, whose worker then starts and the old one is refused', async () => {
    const [namespace, taskQueue] = [newNamespace(), newQueue()];
    const firstEnv = await envFor(namespace, taskQueue, harness().databaseUrl);
    assert.equal((await runMain(['temporal', 'setup'], firstEnv)).code, 0);

    const otherEnv = await envFor(namespace, taskQueue, second.url);
    const claim = await runMain(['temporal', 'setup', '--claim'], otherEnv);
    assert.equal(claim.code, 0, claim.stderr);
    assert.match(
      claim.stdout,
      new RegExp(`deployment ${secondId} \\(this database\\) took the task queue over from deployment ${firstId}`),
    );
    assert.equal(await markerOn(namespace, taskQueue), secondId);

    const worker = new RunningMain(['worker'], otherEnv);
    running.push(worker);
    await worker.waitFor(/"msg":"worker running"/, 90_000);
    const old = await runMain(['worker'], firstEnv);
    assert.equal(old.code, 1, old.stdout);
    assert.match(old.stderr, new RegExp(`belongs to deployment ${secondId}`));
  });

  it('a worker on a namespace without a marker claims the task queue for its database and logs it', async () => {
    const [namespace, taskQueue] = [newNamespace(), newQueue()];
    const setup = await runMain(['temporal', 'setup'], await envFor(namespace, taskQueue));
    assert.equal(setup.code, 0, setup.stderr);
    assert.match(setup.stdout, /^deployment marker: not recorded \(DATABASE_URL is unset\); the first worker or API start records it$/m);
    assert.equal(await markerOn(namespace, taskQueue), undefined);

    const worker = new RunningMain(['worker'], await envFor(namespace, taskQueue, second.url));
    running.push(worker);
    await worker.waitFor(/"msg":"worker running"/, 90_000);
    assert.match(
      worker.stdout,
      new RegExp(
        `task queue \\\\"${taskQueue}\\\\" of namespace \\\\"${namespace}\\\\" had no deployment marker: claimed it for deployment ${secondId}`,
      ),
    );
    assert.equal(await markerOn(namespace, taskQueue), secondId);
  });
});
