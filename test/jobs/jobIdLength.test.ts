import assert from 'node:assert/strict';
import { entityJobId, jobId } from '../../src/temporal/jobIds';
import { SCHEDULES } from '../../src/app/schedules';
import { scheduledWorkflowIdOf } from '../../src/temporal/scheduleSync';
import { eventually } from './jobTestKit';
import { backfillPath, seedSubmissions, startFormsWorld, type FormsWorld } from '../sitePlatform/forms/fixtures';
import { newTenant } from '../sitePlatform/operations/fixtures';
import { newAccount, newAgentKey } from '../helpers/accounts';
import { publishArticles, researchTopic, startResearchWorld, suffix, type ResearchWorld } from '../research/researchKit';

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
