import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { startModelSimulator, type ModelSimulator } from '../../src/sandbox/model';
import { startPageServer, type PageServer } from '../../src/sandbox/pages';
import { startSearchSimulator, type SearchSimulator } from '../../src/sandbox/search';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';
import { startReplacementWorker, startWorkerChild, type WorkerChild } from '../helpers/workerProcess';
import { eventually } from '../jobs/jobTestKit';
import { removeTempDirs } from '../runtime/child';
import { countRows, providerConfig, suffix } from './researchKit';

describe('research run: kill the worker mid-run', function () {
  this.timeout(180_000);
  let search: SearchSimulator;
  let model: ModelSimulator;
  let pages: PageServer;
  let app: PrivateApp;
  let worker: WorkerChild | undefined;
  let replacement: { stop(): Promise<void> } | undefined;
  const taskQueue = `research-resume-${randomBytes(4).toString('hex')}`;
  let finishedRunId: string | undefined;

  before(async () => {
    [search, model, pages] = await Promise.all([startSearchSimulator(), startModelSimulator(), startPageServer()]);
    // Wait 0 s: the route answers 202 at once and the test follows the job.
    app = await startPrivateApp([], { taskQueue, config: { RESEARCH_WAIT_SECONDS: 0 } });
  });

  after(async () => {
    await worker?.kill();
    await replacement?.stop();
    await app?.close();
    await Promise.all([search?.stop(), model?.stop(), pages?.stop()]);
    await removeTempDirs();
  });

  it('a worker killed (SIGKILL) while pages load is replaced, and the same run finishes: one artifact, no duplicated passages', async () => {
    const h = harness();
    const config = providerConfig(search, model);
    worker = await startWorkerChild(taskQueue, config);

    const account = await newAccount('Resume Co');
    const keyword = `air source retrofit ${suffix()}`;
    const paths = [0, 1, 2].map((i) => `/resume/${suffix()}/${i}`);
    paths.forEach((p, i) =>
      pages.setPage(p, {
        html:
          `<article><h1>Retrofit ${i}</h1><p>In 202${i}, ${keyword} cut gas use by ${20 + i}% in 50 homes.</p>` +
          `<p>Crews finished ${10 + i} installs per month in 2025.</p></article>`,
        delayMs: 2_500,
      }),
    );
    search.setResults(
      keyword,
      paths.map((p, i) => ({ title: `Retrofit ${i}`, url: pages.url(p) })),
    );
    const created = await app.call('POST', '/api/marketing/content', {
      token: account.ownerToken,
      body: { title: 'Retrofits', target_keyword: keyword },
    });
    assert.equal(created.status, 201, created.text);
    const contentId = created.body.id;

    const started = await app.call('POST', `/api/marketing/content/${contentId}/research`, {
      token: account.ownerToken,
      body: {},
      headers: { 'Idempotency-Key': `resume-${suffix()}` },
    });
    assert.equal(started.status, 202, started.text);
    const location = started.headers.get('location')!;

    // The pages are loading in the child when it dies.
    await eventually(
      async () => paths.map((p) => pages.hits(p)),
      (hits) => hits.every((n) => n >= 1),
      30_000,
      'the child to request every page',
    );
    await worker.kill();
    const running = await app.call('GET', location, { token: account.ownerToken });
    assert.equal(running.body.status, 'running', running.text);

    replacement = await startReplacementWorker(taskQueue, config);

    const done = await eventually(
      () => app.call('GET', location, { token: account.ownerToken }),
      (r) => r.body?.status !== 'running',
      120_000,
      'the run to finish on the new worker',
    );
    assert.equal(done.body.status, 'completed', done.text);
    const result = done.body.result;
    finishedRunId = started.body.id;
    assert.equal(result.sources.length, 3);
    assert.ok(
      result.sources.every((s: { indexed: boolean }) => s.indexed),
      JSON.stringify(result.sources),
    );
    assert.ok(
      paths.every((p) => pages.hits(p) >= 2),
      'the new worker read the pages again',
    );

    assert.equal(await countRows('kb_artifacts', { account_id: account.accountId, content_id: contentId }), 1);
    const documents = await h.db('kb_documents').where({ kb_id: result.knowledge_base_id }).whereNotNull('source_url');
    assert.equal(documents.length, 3);
    assert.equal(new Set(documents.map((d) => d.source_url)).size, 3, 'unique URLs');
    for (const doc of documents) {
      const [{ n, distinct }] = await h
        .db('kb_passages')
        .where({ document_id: doc.id })
        .select(h.db.raw('count(*)::int as n'), h.db.raw('count(distinct position)::int as distinct'));
      assert.equal(n, distinct, 'no position twice');
      assert.equal(n, doc.passage_count, 'passages as counted when indexed');
    }
    const stamped = await h.db('content_items').where({ id: contentId }).first();
    assert.equal(stamped.settings.research.artifact_id, result.artifact_id);
  });

  it('the recorded history of a research run replays with the current workflow code', async function () {
    if (!finishedRunId) this.skip();
    const history = await harness().client.workflow.getHandle(finishedRunId!).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: harness().bundle }, history, finishedRunId);
  });
});
