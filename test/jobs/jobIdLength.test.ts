import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { entityJobId, jobId } from '../../src/temporal/jobIds';
import { SCHEDULES } from '../../src/app/schedules';
import { scheduledWorkflowIdOf } from '../../src/temporal/scheduleSync';
import { eventually, getJob, jobUrl } from './jobTestKit';
import { failedResearch } from './replayKit';
import { backfillPath, seedSubmissions, startFormsWorld, type FormsWorld } from '../sitePlatform/forms/fixtures';
import { newTenant } from '../sitePlatform/operations/fixtures';
import { newAccount, newAgentKey } from '../helpers/accounts';
import { publishArticles, researchTopic, startResearchWorld, suffix, type ResearchWorld } from '../research/researchKit';
import { harness } from '../helpers/harness';
import { call, type CallResult } from '../helpers/http';
import { createItem, paragraph, runImages, startImageWorld, type ImageWorld } from '../marketing/images/imageRunKit';
import { draft, newDeal } from '../marketing/caseStudy/caseStudyKit';
import { startTurnWorld, type TurnWorld } from '../marketing/ai/turnKit';
import { startQueuedWorld, batchOf, type QueuedWorld } from '../email/send/queuedKit';
import { emailKey, message, senderAccount } from '../email/send/kit';
import { inSeconds } from '../email/scheduled/kit';

/** Temporal's limit on workflow ids (`limit.maxIDLength`), which the dev server of the tests enforces too. */
const MAX_ID = 255;
const longKey = (tag: string) => `${tag}-${Date.now()}-`.padEnd(200, 'k');

describe("every job id fits the server's 255-character limit whatever the client sends", () => {
  it("every job id fits the server's 255-character limit whatever the client sends: ids made from any key", () => {
    const account = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const short = jobId('site-platform-forms-backfill', account, 'order-42');
    assert.equal(short, `site-platform-forms-backfill:${account}:order-42`, 'a short key stays readable');
    for (const key of ['k'.repeat(200), 'k'.repeat(255), `${'é'.repeat(100)} x`, 'x'.repeat(5000)]) {
      const id = jobId('a'.repeat(64), account, key);
      assert.ok(id.length <= MAX_ID, `${id.length} characters`);
      assert.equal(jobId('a'.repeat(64), account, key), id, 'the same key is the same id');
    }
    assert.notEqual(jobId('research', account, 'k'.repeat(230)), jobId('research', account, `${'k'.repeat(229)}j`));
  });

  it("every job id fits the server's 255-character limit whatever the client sends: site-platform-events", () => {
    const account = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const siteId = '64f1c2a9e8b7d6c5b4a39281';
    assert.equal(
      entityJobId('site-platform-events', account, siteId),
      `site-platform-events:${account}:${siteId}`,
      'a site id that fits stays',
    );
    const long = entityJobId('site-platform-events', account, 's'.repeat(200));
    assert.ok(long.length <= MAX_ID, `${long.length} characters`);
    assert.equal(entityJobId('site-platform-events', account, 's'.repeat(200)), long, 'the same site is the same workflow');
  });

  it("every job id fits the server's 255-character limit whatever the client sends: scheduled runs", () => {
    // Temporal appends `-<RFC 3339 time>` to a schedule's workflow id for each run.
    for (const { name } of SCHEDULES) assert.ok(`${scheduledWorkflowIdOf(name)}-2025-12-31T23:59:59Z`.length <= MAX_ID, name);
  });

  describe('through the public routes', () => {
    let forms: FormsWorld;
    let research: ResearchWorld;
    before(async () => {
      [forms, research] = await Promise.all([startFormsWorld(), startResearchWorld()]);
    });
    after(async () => {
      await Promise.all([forms?.close(), research?.stop()]);
    });

    it("every job id fits the server's 255-character limit whatever the client sends: research", async () => {
      const owner = await newAccount('Long Keys Co');
      const keyword = `geothermal ${suffix()}`;
      publishArticles(research, keyword, 1);
      const agentKey = await newAgentKey(owner.accountId, ['marketing.content:create']);
      for (const key of [longKey('research'), longKey('research').padEnd(255, 'r')]) {
        const first = await researchTopic(research, agentKey, { topic: 'Geothermal', keyword }, key);
        assert.equal(first.status, 201, first.text);
        const id: string = first.body.run_id;
        assert.ok(id.startsWith(`research:${owner.accountId}:`) && id.length <= MAX_ID, id);
        const again = await researchTopic(research, agentKey, { topic: 'Geothermal', keyword }, key);
        assert.deepEqual([again.status, again.body.run_id], [201, id], again.text);
      }
    });

    it("every job id fits the server's 255-character limit whatever the client sends: site-platform-forms-backfill", async () => {
      const t = await newTenant(forms);
      seedSubmissions(forms, t.siteId, 3);
      const noWait = await forms.appWith({ SITE_PLATFORM_FORMS_BACKFILL_WAIT_SECONDS: 0 });
      const headers = { 'idempotency-key': longKey('forms') };
      const call = () => noWait.call('POST', backfillPath(t.projectId), { token: t.account.ownerToken, body: { limit: 3 }, headers });
      const first = await call();
      assert.equal(first.status, 202, first.text);
      const id: string = first.body.id;
      assert.ok(id.startsWith(`site-platform-forms-backfill:${t.account.accountId}:`) && id.length <= MAX_ID, id);
      await sameJobAgain(forms.app, t.account.ownerToken, 'site-platform-forms-backfill', id, call);
    });
  });
});

describe("every job id fits the server's 255-character limit whatever the client sends: the other job kinds", function () {
  this.timeout(180_000);

  describe('content jobs', () => {
    let world: ImageWorld;
    before(async () => {
      world = await startImageWorld();
    });
    after(async () => world?.stop());

    it("every job id fits the server's 255-character limit whatever the client sends: content-images", async () => {
      const owner = await newAccount('Long Keys Images Co');
      const id = await createItem(world.app, owner.ownerToken, { body: `<h2>Sizing the unit</h2>\n${paragraph('sizing')}` });
      const key = longKey('images');
      const body = { max_sections: 0 };
      const first = await runImages(world.app, owner.ownerToken, id, { key, body });
      assert.equal(first.status, 201, first.text);
      const answered: string = first.body.run_id;
      assert.ok(answered.startsWith(`content-images:${owner.accountId}:`) && answered.length <= MAX_ID, answered);
      await sameJob(owner.ownerToken, answered);
      const again = await runImages(world.app, owner.ownerToken, id, { key, body });
      assert.deepEqual([again.status, again.body.run_id], [201, answered], again.text);
    });

    it("every job id fits the server's 255-character limit whatever the client sends: case-study", async () => {
      const owner = await newAccount('Long Keys Case Co');
      const deal = await newDeal(world.app, owner.ownerToken);
      const key = longKey('case-study');
      const first = await draft(world.app, owner.ownerToken, { deal_id: deal.id }, { key });
      assert.equal(first.status, 201, first.text);
      const [job] = await jobsOfKind(owner.ownerToken, 'case-study', 1);
      assert.ok(job.id.startsWith(`case-study:${owner.accountId}:`) && job.id.length <= MAX_ID, job.id);
      await sameJob(owner.ownerToken, job.id);
      const again = await draft(world.app, owner.ownerToken, { deal_id: deal.id }, { key });
      assert.deepEqual([again.status, again.body.id], [201, first.body.id], again.text);
      assert.deepEqual(
        (await jobsOfKind(owner.ownerToken, 'case-study', 1)).map((j) => j.id),
        [job.id],
        'never a second job',
      );
    });
  });

  describe('department chat turns', () => {
    let world: TurnWorld;
    before(async () => {
      world = await startTurnWorld({}, { AI_TURN_WAIT_SECONDS: 20 });
    });
    after(async () => world?.close());

    it("every job id fits the server's 255-character limit whatever the client sends: ai-turn", async () => {
      const { account } = world.tenant;
      const headers = { 'idempotency-key': longKey('ai-turn') };
      const start = () =>
        world.app.call('POST', '/api/agent/marketing/ai/turns', { token: account.agentKey, body: { message: 'hello' }, headers });
      const first = await start();
      assert.equal(first.status, 200, first.text);
      const answered: string = first.body.job_id;
      assert.ok(answered.startsWith(`ai-turn:${account.accountId}:`) && answered.length <= MAX_ID, answered);
      await sameJob(account.ownerToken, answered);
      const again = await start();
      assert.deepEqual([again.status, again.body.turn_id, again.body.job_id], [200, first.body.turn_id, answered], again.text);
    });
  });

  describe('email sends', () => {
    let world: QueuedWorld;
    before(async () => {
      world = await startQueuedWorld();
    });
    after(async () => world?.close());

    it("every job id fits the server's 255-character limit whatever the client sends: email-scheduled", async () => {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId);
      const headers = { 'Idempotency-Key': longKey('email-scheduled') };
      const body = message({ scheduled_at: inSeconds(3600) });
      const send = () => world.app.call('POST', '/v1/email/send', { token, headers, body });
      const first = await send();
      assert.equal(first.status, 202, first.text);
      const answered = `email-scheduled:${account.accountId}:${first.body.id}`;
      assert.ok(answered.length <= MAX_ID, answered);
      await sameJob(account.ownerToken, answered);
      const again = await send();
      assert.deepEqual([again.status, again.body.id], [202, first.body.id], again.text);
      assert.deepEqual(
        (await jobsOfKind(account.ownerToken, 'email-scheduled', 1)).map((j) => j.id),
        [answered],
        'never a second job',
      );
      await world.app.call('POST', `/v1/email/emails/${first.body.id}/cancel`, { token });
    });

    it("every job id fits the server's 255-character limit whatever the client sends: email-batch", async () => {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId, { ratePerSecond: 10 });
      const headers = { 'Idempotency-Key': longKey('email-batch') };
      const send = () => world.app.call('POST', '/v1/email/batch', { token, headers, body: batchOf(20) });
      const first = await send();
      assert.equal(first.status, 202, first.text);
      const answered: string = first.body.job_id;
      assert.ok(answered.startsWith(`email-batch:${account.accountId}:`) && answered.length <= MAX_ID, answered);
      await sameJob(account.ownerToken, answered);
      const again = await send();
      assert.deepEqual([again.status, again.body.job_id], [202, answered], again.text);
      assert.deepEqual(
        (await jobsOfKind(account.ownerToken, 'email-batch', 1)).map((j) => j.id),
        [answered],
        'never a second job',
      );
    });
  });

  describe('job actions and cron runs', () => {
    it("every job id fits the server's 255-character limit whatever the client sends: jobs-bulk", async () => {
      const owner = await newAccount('Long Keys Bulk Co');
      const headers = { 'Idempotency-Key': longKey('bulk') };
      const body = { action: 'cancel', job_ids: [`research:${owner.accountId}:`.padEnd(1000, 'j')] };
      const start = () => call('POST', '/api/jobs/bulk', { token: owner.ownerToken, headers, body });
      const first = await start();
      assert.equal(first.status, 202, first.text);
      const id: string = first.body.id;
      assert.ok(id.startsWith(`jobs-bulk:${owner.accountId}:`) && id.length <= MAX_ID, id);
      const read = await call('GET', jobUrl(id, '/api/jobs/bulk'), { token: owner.ownerToken });
      assert.deepEqual([read.status, read.body.id], [200, id], read.text);
      await sameJob(owner.ownerToken, id);
      const again = await start();
      assert.deepEqual([again.status, again.body.id], [202, id], again.text);
    });

    it("every job id fits the server's 255-character limit whatever the client sends: replay", async () => {
      const owner = await newAccount('Long Keys Replay Co');
      const old = await failedResearch(owner.accountId, owner.ownerToken);
      const headers = { 'Idempotency-Key': longKey('replay') };
      const replay = () => call('POST', `${jobUrl(old.id)}/replay`, { token: owner.ownerToken, headers });
      const first = await replay();
      assert.equal(first.status, 201, first.text);
      const id: string = first.body.id;
      assert.ok(id.startsWith(`research:${owner.accountId}:`) && id !== old.id && id.length <= MAX_ID, id);
      await sameJob(owner.ownerToken, id);
      const again = await replay();
      assert.deepEqual([again.status, again.body.id], [201, id], again.text);
    });

    it("every job id fits the server's 255-character limit whatever the client sends: cron run-now", async () => {
      const token = harness().deps.config.CRON_SECRET!;
      // The schedule's name is the only part of the id a caller names, and only a known schedule starts anything.
      const unknown = await call('POST', `/api/cron/${'s'.repeat(250)}`, { token });
      assert.deepEqual([unknown.status, unknown.body.code], [404, 'schedule_not_found'], unknown.text);
      const longest = Math.max(...SCHEDULES.map((s) => s.name.length));
      assert.ok(`cron:${'n'.repeat(longest)}:${randomUUID()}`.length <= MAX_ID, 'the run of any product schedule');
      // The harness app's schedules are the test ones.
      const name = harness()
        .deps.schedules.map((s) => s.name)
        .sort((a, b) => b.length - a.length)[0];
      const res = await call('POST', `/api/cron/${name}`, { token, body: {} });
      assert.equal(res.status, 202, res.text);
      const id: string = res.body.id;
      assert.ok(id.startsWith(`cron:${name}:`) && id.length <= MAX_ID, id);
      const described = await harness().client.workflow.getHandle(id).describe();
      assert.equal(described.workflowId, id);
    });
  });
});

/** The job the route answered is the one `GET /api/jobs/{id}` and the Temporal client describe under that id. */
async function sameJob(token: string, id: string): Promise<void> {
  const read = await getJob(token, id);
  assert.deepEqual([read.status, read.body.id], [200, id], read.text);
  const described = await harness().client.workflow.getHandle(id).describe();
  assert.equal(described.workflowId, id);
}

/** The account's jobs of a kind once visibility lists `count` of them. */
async function jobsOfKind(token: string, kind: string, count: number): Promise<Array<{ id: string }>> {
  const listed: CallResult = await eventually(
    () => call('GET', `/api/jobs?kind=${kind}`, { token }),
    (r) => r.status === 200 && r.body.data.length >= count,
    20_000,
    `${count} ${kind} job(s) in GET /api/jobs`,
  );
  return listed.body.data;
}

/** The same request again answers the same job: its id again while it runs, its result once done; never a second job. */
async function sameJobAgain(
  app: FormsWorld['app'],
  token: string,
  kind: string,
  id: string,
  call: () => Promise<{ status: number; text: string; body: any }>,
): Promise<void> {
  const again = await call();
  assert.ok(again.status === 200 || (again.status === 202 && again.body.id === id), again.text);
  const listed = await eventually(
    () => app.call('GET', `/api/jobs?kind=${kind}`, { token }),
    (r) => r.body?.data?.some((j: any) => j.id === id),
    20_000,
    `the ${kind} job in GET /api/jobs`,
  );
  assert.deepEqual(
    listed.body.data.map((j: any) => j.id),
    [id],
  );
}
