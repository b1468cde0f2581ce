import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Config } from '../../../src/config';
import { newAgentKey } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { startPrivateApp } from '../../helpers/privateApp';
import { newProjectId } from '../../helpers/projects';
import { startTestWorker } from '../../helpers/workerProcess';
import { ProjectIdKey } from '../../../src/temporal/searchAttributes';
import { eventually } from '../../jobs/jobTestKit';
import { finished, pollUntil, script, startTurnWorld, toolLine, type TurnWorld } from './turnKit';

const TURNS = '/api/agent/marketing/ai/turns';

describe('department AI chat turns (POST /api/agent/marketing/ai/turns, GET …/turns/{turnId})', function () {
  this.timeout(90_000);
  let world: TurnWorld;
  let key: string;

  before(async () => {
    world = await startTurnWorld({}, { AI_TURN_WAIT_SECONDS: 20 });
    key = world.tenant.account.agentKey;
  });
  after(async () => {
    await world?.close();
  });
  afterEach(() => {
    world.model.delayMs = 0;
  });

  const start = (body: Record<string, unknown>, token = key, headers: Record<string, string> = {}) =>
    world.app.call('POST', TURNS, { token, body, headers });
  /** The same app and worker with other config (the start call's wait, the history window). */
  const appWith = (config: Partial<Config>) =>
    startPrivateApp([], { config: { ...world.config, AI_TURN_WAIT_SECONDS: 20, ...config }, taskQueue: world.taskQueue });
  const publishes = () => world.site.sim.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/publish')).length;

  it('a turn finished within the wait answers 200: response, tool calls through the registry runner, events in seq order', async () => {
    const { siteId, collectionId } = world.tenant;
    const res = await start({
      message: script(
        toolLine('platform_site_get', { site_id: siteId }),
        toolLine('platform_cms_collection_list', { site_id: siteId }),
        toolLine('platform_cms_item_list', { site_id: siteId, collection_id: collectionId }),
        '/say Your site has one collection.',
      ),
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'completed');
    assert.equal(res.body.response, 'Your site has one collection.');
    assert.deepEqual(
      res.body.tool_calls.map((c: { name: string; status: string; http_status: number }) => [c.name, c.status, c.http_status]),
      [
        ['platform_site_get', 'ok', 200],
        ['platform_cms_collection_list', 'ok', 200],
        ['platform_cms_item_list', 'ok', 200],
      ],
    );
    const seqs = res.body.events.map((e: { seq: number }) => e.seq);
    assert.deepEqual(
      seqs,
      seqs.map((_: number, i: number) => i + 1),
      'seq starts at 1 and grows by one',
    );
    const types = res.body.events.map((e: { type: string }) => e.type);
    assert.equal(types.filter((t: string) => t === 'tool_call_started').length, 3);
    assert.equal(types.filter((t: string) => t === 'tool_call_finished').length, 3);
    assert.equal(types.at(-1), 'done');
    assert.equal(res.body.stale, false);
    assert.match(res.body.job_id, new RegExp(`^ai-turn:${world.tenant.account.accountId}:${res.body.turn_id}$`));
    // The model saw the tools' answers as protocol tool messages, and the runner's answer reached it.
    const last = world.model.requests.at(-1)!;
    const toolMessages = last.messages.filter((m) => (m as { role: string }).role === 'tool');
    assert.equal(toolMessages.length, 3);
    assert.match(String((toolMessages[0] as { content: string }).content), new RegExp(siteId));
  });

  it('past the wait the start call answers 202 with session_id, turn_id and what had arrived; polling reaches done; since_seq pages', async () => {
    world.model.delayMs = 1_500;
    const short = await appWith({ AI_TURN_WAIT_SECONDS: 0.3 });
    try {
      const res = await short.call('POST', TURNS, {
        token: key,
        body: { message: script(toolLine('platform_site_get', { site_id: world.tenant.siteId })) },
      });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.status, 'running');
      assert.ok(res.body.session_id && res.body.turn_id);
      assert.equal(res.body.response, null);
      const done = await pollUntil(world.app, key, res.body.turn_id, finished);
      assert.equal(done.body.status, 'completed');
      assert.equal(done.body.session_id, res.body.session_id);
      const all = done.body.events as Array<{ seq: number }>;
      assert.ok(all.length >= 4);
      const after2 = await world.app.call('GET', `${TURNS}/${res.body.turn_id}?since_seq=2`, { token: key });
      assert.deepEqual(
        after2.body.events.map((e: { seq: number }) => e.seq),
        all.filter((e) => e.seq > 2).map((e) => e.seq),
      );
      const one = await world.app.call('GET', `${TURNS}/${res.body.turn_id}?since_seq=0&limit=1`, { token: key });
      assert.deepEqual([one.body.events.length, one.body.next_seq, one.body.has_more], [1, 1, true]);
      const none = await world.app.call('GET', `${TURNS}/${res.body.turn_id}?since_seq=${all.at(-1)!.seq}`, { token: key });
      assert.deepEqual([none.body.events, none.body.next_seq, none.body.has_more], [[], all.at(-1)!.seq, false]);
    } finally {
      await short.close();
    }
  });

  it('a read-only key: its chat is offered read tools only, and a scripted write is never called', async () => {
    const readOnly = await newAgentKey(
      world.tenant.account.accountId,
      ['marketing.content:read', 'site_platform:read', 'site_platform:write'],
      true,
    );
    const res = await start(
      {
        message: script(
          toolLine('platform_site_publish', { site_id: world.tenant.siteId }),
          toolLine('platform_site_get', { site_id: world.tenant.siteId }),
        ),
      },
      readOnly,
    );
    assert.equal(res.status, 200, res.text);
    const offered = (world.model.requests.at(-1)!.tools ?? []).map((t) => t.function.name);
    assert.ok(offered.includes('platform_site_get'));
    assert.ok(!offered.includes('platform_site_publish'));
    assert.ok(!offered.some((n) => ['platform_cms_item_create', 'content_update'].includes(n)), 'no write tool');
    assert.deepEqual(
      res.body.tool_calls.map((c: { name: string }) => c.name),
      ['platform_site_get'],
    );
    assert.match(res.body.response, /platform_site_publish is not available to you/);
  });

  it('a confirm-gated operation waits for the user: 202 awaiting_confirmation, nothing sent; confirmed, it runs in the same workflow', async () => {
    const before = publishes();
    const res = await start({
      message: script(toolLine('platform_site_publish', { site_id: world.tenant.siteId, publishToWebflowSubdomain: true, confirm: true })),
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, 'awaiting_confirmation');
    assert.equal(res.body.pending_call.name, 'platform_site_publish');
    assert.equal(publishes(), before, 'the model cannot confirm on its own: nothing reached the platform');

    const wrong = await world.app.call('POST', `${TURNS}/${res.body.turn_id}/confirm`, { token: key, body: { call_id: 'call_other' } });
    assert.equal(wrong.status, 409);
    assert.equal(wrong.body.code, 'confirmation_mismatch');

    const ok = await world.app.call('POST', `${TURNS}/${res.body.turn_id}/confirm`, {
      token: key,
      body: { call_id: res.body.pending_call.call_id },
    });
    assert.equal(ok.status, 202, ok.text);
    const done = await pollUntil(world.app, key, res.body.turn_id, finished);
    assert.equal(done.body.status, 'completed');
    assert.deepEqual(
      done.body.tool_calls.map((c: { status: string }) => c.status),
      ['ok'],
    );
    assert.equal(publishes(), before + 1);
    const audit = await harness()
      .db('site_platform_audit')
      .where({ account_id: world.tenant.account.accountId, action: 'platform.site_publish' })
      .orderBy('at', 'desc')
      .first();
    assert.match(audit.actor, new RegExp(`^workflow:${done.body.job_id}:[A-Za-z0-9-]+$`));
    assert.ok(done.body.events.some((e: { type: string; data: { approved?: boolean } }) => e.type === 'confirmation' && e.data.approved));

    const again = await world.app.call('POST', `${TURNS}/${res.body.turn_id}/confirm`, { token: key, body: { call_id: 'x' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'turn_not_awaiting_confirmation');
  });

  it('a declined confirmation: the call never runs and the model is told so', async () => {
    const before = publishes();
    const res = await start({ message: script(toolLine('platform_site_publish', { site_id: world.tenant.siteId })) });
    assert.equal(res.body.status, 'awaiting_confirmation');
    await world.app.call('POST', `${TURNS}/${res.body.turn_id}/confirm`, {
      token: key,
      body: { call_id: res.body.pending_call.call_id, approve: false },
    });
    const done = await pollUntil(world.app, key, res.body.turn_id, finished);
    assert.equal(done.body.status, 'completed');
    assert.equal(done.body.tool_calls[0].status, 'declined');
    assert.equal(publishes(), before);
  });

  it('a pinned project: site operations go to its site without naming it; the job carries ProjectId; another project in the session is 409', async () => {
    const { projectId, siteId } = world.tenant;
    const res = await start({ message: script(toolLine('platform_site_get', {})), project_id: projectId });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.project_id, projectId);
    assert.equal(res.body.tool_calls[0].status, 'ok');
    const run = await harness().client.workflow.getHandle(res.body.job_id).describe();
    assert.equal(run.typedSearchAttributes.get(ProjectIdKey), projectId);
    const toolMessage = world.model.requests.at(-1)!.messages.find((m) => (m as { role: string }).role === 'tool') as { content: string };
    assert.match(toolMessage.content, new RegExp(siteId));

    const other = await newProjectId(world.tenant.account.accountId);
    const mismatch = await start({ message: 'hello', session_id: res.body.session_id, project_id: other });
    assert.equal(mismatch.status, 409);
    assert.equal(mismatch.body.code, 'session_project_mismatch');
    const foreign = await start({ message: 'hello', project_id: randomUUID() });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'project_not_found');
  });

  it('cancellation through the job surface ends the turn cancelled', async () => {
    const MODEL_MS = 2_000;
    world.model.delayMs = MODEL_MS;
    const short = await appWith({ AI_TURN_WAIT_SECONDS: 0.2 });
    const started = Date.now();
    try {
      const res = await short.call('POST', TURNS, { token: key, body: { message: 'take your time' } });
      assert.equal(res.status, 202, res.text);
      const cancel = await world.app.call('POST', `/api/agent/jobs/${encodeURIComponent(res.body.job_id)}/cancel`, { token: key });
      assert.ok([200, 202].includes(cancel.status), cancel.text);
      const done = await pollUntil(world.app, key, res.body.turn_id, finished);
      assert.equal(done.body.status, 'cancelled');
      assert.equal(done.body.events.at(-1).type, 'done');
    } finally {
      await short.close();
      // The simulator answers the cancelled turn's model call once its delay passes; let it, so that answer cannot
      // take a failure a later test arms.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + MODEL_MS + 300 - Date.now())));
    }
  });

  it('a session continues: the earlier turns go to the model as history, and the window stays bounded', async () => {
    const first = await start({ message: 'first message' });
    const session = first.body.session_id;
    for (const m of ['second message', 'third message']) await start({ message: m, session_id: session });
    // The window is the worker's setting (its model step builds the messages): a worker and app of their own.
    const worker = await startTestWorker('ai-history', { ...world.config, AI_HISTORY_TURNS: 2 });
    const narrow = await startPrivateApp([], { config: { ...world.config, AI_TURN_WAIT_SECONDS: 20 }, taskQueue: worker.taskQueue });
    try {
      const res = await narrow.call('POST', TURNS, { token: key, body: { message: 'fourth message', session_id: session } });
      assert.equal(res.status, 200, res.text);
      const sent = world.model.requests.at(-1)!.messages.map((m) => (m as { content: string }).content);
      assert.ok(sent.includes('second message') && sent.includes('third message') && sent.includes('fourth message'));
      assert.ok(!sent.includes('first message'), 'older turns are not sent');
      assert.match(String(sent[0]), /1 earlier turn\(s\) of this session are not shown/);
      assert.ok(sent.includes('You said: third message'), "an earlier turn's answer is in the history");
    } finally {
      await narrow.close();
      await worker.stop();
    }
  });

  it('a model that keeps failing fails the turn with its code, after the step is retried', async () => {
    const callsBefore = world.model.calls;
    world.model.failNext(3, 500);
    const res = await start({ message: 'this will fail' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'failed');
    assert.deepEqual(res.body.error.code, 'model_unavailable');
    assert.equal(world.model.calls - callsBefore, 3, 'three attempts of the model step');
    // The start call answers when the turn's row ends; its run closes a moment later (it reports the job's close).
    const job = await eventually(
      () => world.app.call('GET', `/api/agent/jobs/${encodeURIComponent(res.body.job_id)}`, { token: key }),
      (r) => r.body.status !== 'running',
      5_000,
      'the turn job closed',
    );
    assert.equal(job.body.status, 'failed');
    assert.equal(job.body.error.code, 'model_unavailable');
  });

  it('the dashboard twin: a session user chats with every tool', async () => {
    const res = await world.app.call('POST', '/api/marketing/ai/turns', {
      token: world.tenant.account.ownerToken,
      body: { message: script(toolLine('content_list', {}), '/say listed') },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.status, res.body.response, res.body.tool_calls[0].status], ['completed', 'listed', 'ok']);
    const offered = (world.model.requests.at(-1)!.tools ?? []).map((t) => t.function.name);
    assert.ok(offered.includes('platform_site_publish') && offered.includes('content_update'));
    const poll = await world.app.call('GET', `/api/marketing/ai/turns/${res.body.turn_id}`, { token: world.tenant.account.ownerToken });
    assert.equal(poll.status, 200);
    assert.equal(poll.body.turn_id, res.body.turn_id);
  });

  it('an Idempotency-Key attaches a retried start to the same turn; another body under it is 409', async () => {
    const headers = { 'idempotency-key': `chat-${randomUUID()}` };
    const a = await start({ message: 'once only' }, key, headers);
    const b = await start({ message: 'once only' }, key, headers);
    assert.equal(a.status, 200, a.text);
    assert.deepEqual([b.status, b.body.turn_id, b.body.session_id], [200, a.body.turn_id, a.body.session_id]);
    const turns = await harness().db('ai_turns').where({ id: a.body.turn_id });
    assert.equal(turns.length, 1);
    const reused = await start({ message: 'something else' }, key, headers);
    assert.equal(reused.status, 409);
    assert.equal(reused.body.code, 'idempotency_key_reused');
  });

  it("cross-account turn ids answer 404, as do unknown ids and another account's session", async () => {
    const mine = await start({ message: 'private' });
    const other = await world.newTenant();
    for (const path of [`${TURNS}/${mine.body.turn_id}`, `${TURNS}/${randomUUID()}`]) {
      const res = await world.app.call('GET', path, { token: other.account.agentKey });
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 'turn_not_found');
    }
    const confirm = await world.app.call('POST', `${TURNS}/${mine.body.turn_id}/confirm`, {
      token: other.account.agentKey,
      body: { call_id: 'x' },
    });
    assert.equal(confirm.status, 404);
    const session = await start({ message: 'hi', session_id: mine.body.session_id }, other.account.agentKey);
    assert.equal(session.status, 404);
    assert.equal(session.body.code, 'session_not_found');
  });

  it('bad input is a coded 400 and starts nothing', async () => {
    const count = async () => Number((await harness().db('ai_turns').count({ n: '*' }))[0].n);
    const before = await count();
    for (const body of [
      {},
      { message: '' },
      { message: '   ' },
      { message: 'x'.repeat(8_001) },
      { message: 'hi', session_id: 'nope' },
      { message: 'hi', extra: 1 },
    ]) {
      const res = await start(body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(res.body.code, 'validation_failed');
    }
    for (const q of ['since_seq=-1', 'since_seq=abc', 'limit=0', 'limit=501', 'other=1']) {
      const res = await world.app.call('GET', `${TURNS}/${randomUUID()}?${q}`, { token: key });
      assert.equal(res.status, 400, q);
    }
    const badId = await world.app.call('GET', `${TURNS}/not-a-uuid`, { token: key });
    assert.equal(badId.status, 400);
    assert.equal(await count(), before);
  });
});
