import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';
import { eventually } from '../jobs/jobTestKit';
import {
  countRows,
  createItem,
  publishArticles,
  researchItem,
  researchTopic,
  startResearchWorld,
  suffix,
  type ResearchWorld,
} from './researchKit';

async function runsOf(workflowId: string): Promise<number> {
  let n = 0;
  for await (const _ of harness().client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) n++;
  return n;
}

describe('research runs: Idempotency-Key and the wait bound', function () {
  this.timeout(120_000);
  let world: ResearchWorld;
  let owner: TestAccount;

  before(async () => {
    world = await startResearchWorld();
    owner = await newAccount('Idempotent Research Co');
  });
  after(async () => world?.stop());

  it('a retry with the same Idempotency-Key returns the same run: one workflow, one artifact, every page read once', async () => {
    const keyword = `radiant floor heating ${suffix()}`;
    const { paths } = publishArticles(world, keyword, 2);
    const id = await createItem(world, owner.ownerToken, { title: 'Radiant floors', target_keyword: keyword });
    const key = `retry-${suffix()}`;

    const first = await researchItem(world, owner.ownerToken, id, { key });
    assert.equal(first.status, 201, first.text);
    const hits = paths.map((p) => world.pages.hits(p));
    const modelCalls = world.model!.calls;

    const retry = await researchItem(world, owner.ownerToken, id, { key });
    assert.equal(retry.status, 201, retry.text);
    assert.deepEqual(retry.body, first.body);
    assert.equal(first.body.run_id, `research:${owner.accountId}:${key}`);
    assert.deepEqual(
      paths.map((p) => world.pages.hits(p)),
      hits,
      'no page read again',
    );
    assert.equal(world.model!.calls, modelCalls, 'no model call again');
    assert.equal(await countRows('kb_artifacts', { account_id: owner.accountId, content_id: id }), 1);
    await eventually(
      () => runsOf(first.body.run_id),
      (n) => n === 1,
      10_000,
      'one run of the workflow id',
    );
  });

  it('the same Idempotency-Key with another body is 409 idempotency_key_reused and nothing runs', async () => {
    const keyword = `heat pump noise ${suffix()}`;
    const { paths } = publishArticles(world, keyword, 2);
    const id = await createItem(world, owner.ownerToken, { title: 'Noise', target_keyword: keyword });
    const key = `reuse-${suffix()}`;
    const first = await researchItem(world, owner.ownerToken, id, { key, body: { max_sources: 2 } });
    assert.equal(first.status, 201, first.text);
    const hits = paths.map((p) => world.pages.hits(p));

    const other = await researchItem(world, owner.ownerToken, id, { key, body: { max_sources: 1 } });
    assert.equal(other.status, 409, other.text);
    assert.equal(other.body.code, 'idempotency_key_reused');
    assert.deepEqual(
      paths.map((p) => world.pages.hits(p)),
      hits,
    );

    // The default is the same request as sending it: not a conflict.
    const same = await researchItem(world, owner.ownerToken, id, { key, body: { max_sources: 2 } });
    assert.equal(same.status, 201, same.text);
    assert.equal(same.body.run_id, first.body.run_id);
  });

  describe('with a wait bound of 1 second', () => {
    let slowApp: PrivateApp;
    before(async () => {
      slowApp = await startPrivateApp([], { taskQueue: world.taskQueue, config: { RESEARCH_WAIT_SECONDS: 1 } });
    });
    after(async () => slowApp?.close());

    it('past the wait bound the answer is 202 with the job; GET /api/jobs/{id} shows progress, then the result', async () => {
      const keyword = `ground source heat ${suffix()}`;
      const { paths } = publishArticles(world, keyword, 2);
      paths.forEach((path) =>
        world.pages.setPage(path, {
          html: `<article><h1>Slow</h1><p>In 2020, ${keyword} output rose 14% in 60 homes.</p></article>`,
          delayMs: 4_000,
        }),
      );
      const id = await createItem(world, owner.ownerToken, { title: 'Ground source', target_keyword: keyword });
      const key = `slow-${suffix()}`;

      const res = await slowApp.call('POST', `/api/marketing/content/${id}/research`, {
        token: owner.ownerToken,
        body: {},
        headers: { 'Idempotency-Key': key },
      });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.kind, 'research');
      assert.equal(res.body.status, 'running');
      assert.equal(res.body.content_id, id);
      const location = res.headers.get('location')!;
      assert.equal(location, `/api/jobs/research:${owner.accountId}:${key}`);

      const running = await eventually(
        () => slowApp.call('GET', location, { token: owner.ownerToken }),
        (r) => r.body?.progress?.phase === 'pages',
        15_000,
        'the pages phase',
      );
      assert.equal(running.body.status, 'running');
      assert.equal(running.body.progress.total, 2);

      // A retry while it runs attaches to the same run (no 409 "in progress").
      const retry = await slowApp.call('POST', `/api/marketing/content/${id}/research`, {
        token: owner.ownerToken,
        body: {},
        headers: { 'Idempotency-Key': key },
      });
      assert.equal(retry.status, 202, retry.text);
      assert.equal(retry.body.id, res.body.id);

      const done = await eventually(
        () => slowApp.call('GET', location, { token: owner.ownerToken }),
        (r) => r.body?.status === 'completed',
        30_000,
        'the run to complete',
      );
      assert.equal(done.body.result.content_id, id);
      assert.equal(done.body.result.sources.length, 2);
      assert.ok(done.body.result.artifact_id);

      const listed = await eventually(
        () => slowApp.call('GET', `/api/jobs?kind=research&content_id=${id}`, { token: owner.ownerToken }),
        (r) => r.body?.data?.some((j: { id: string }) => j.id === res.body.id),
        10_000,
        'the job in the list',
      );
      assert.equal(listed.body.data.find((j: { id: string }) => j.id === res.body.id).kind, 'research');
    });

    it('topic research past the bound answers 202 pointing at the agent jobs route', async () => {
      const keyword = `district heating ${suffix()}`;
      const { paths } = publishArticles(world, keyword, 1);
      world.pages.setPage(paths[0], { html: `<article><p>In 2019, ${keyword} served 30% of the city.</p></article>`, delayMs: 3_000 });
      const agentKey = await newAgentKey(owner.accountId, ['marketing.content:create', 'jobs:read']);
      const res = await slowApp.call('POST', '/api/agent/marketing/content/research', {
        token: agentKey,
        body: { topic: 'District heating', keyword },
      });
      assert.equal(res.status, 202, res.text);
      assert.match(res.headers.get('location')!, new RegExp(`^/api/agent/jobs/research:${owner.accountId}:`));
      const done = await eventually(
        () => slowApp.call('GET', res.headers.get('location')!, { token: agentKey }),
        (r) => r.body?.status === 'completed',
        30_000,
        'the topic run to complete',
      );
      assert.equal(done.body.result.content_id, null);
      assert.equal(done.body.result.topic, 'District heating');
    });
  });

  it('topic research honours Idempotency-Key too', async () => {
    const keyword = `solar thermal ${suffix()}`;
    publishArticles(world, keyword, 1);
    const agentKey = await newAgentKey(owner.accountId, ['marketing.content:create']);
    const key = `topic-${suffix()}`;
    const first = await researchTopic(world, agentKey, { topic: 'Solar thermal', keyword }, key);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.run_id, `research:${owner.accountId}:${key}`);
    const again = await researchTopic(world, agentKey, { topic: 'Solar thermal', keyword }, key);
    assert.deepEqual(again.body, first.body);
    const other = await researchTopic(world, agentKey, { topic: 'Solar thermal panels', keyword }, key);
    assert.equal(other.status, 409, other.text);
    assert.equal(other.body.code, 'idempotency_key_reused');
  });
});
