import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../src/app/app';
import { SCHEDULES } from '../../../src/app/schedules';
import { createMetrics } from '../../../src/http/metrics';
import { startAnalyticsSimulator, type AnalyticsSimulator } from '../../../src/sandbox/analytics';
import { AccountIdKey, JobKindKey, SYSTEM_ACCOUNT } from '../../../src/temporal/searchAttributes';
import { contentAnalyticsDailyContract, type ContentAnalyticsDailySummary } from '../../../workflows/contentAnalyticsDaily.contract';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { callAt } from '../../helpers/http';
import { newProjectId } from '../../helpers/projects';
import { startTestWorker } from '../../helpers/workerProcess';
import { linkedItem, todayUtc } from './fixtures';

const DAY_MS = 86_400_000;
const TODAY = todayUtc();
const day = (n: number) => new Date(TODAY - n * DAY_MS).toISOString().slice(0, 10);

describe('content-analytics-daily schedule and run-now route', function () {
  this.timeout(90_000);
  let sim: AnalyticsSimulator;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  let server: Server;
  let cronUrl: string;
  let owner: TestAccount;
  let projectId: string;
  let collectorSite: string;

  before(async () => {
    sim = await startAnalyticsSimulator();
    worker = await startTestWorker('analytics-nightly', { ANALYTICS_API_URL: sim.url, ANALYTICS_API_KEY: sim.apiKey });
    const { deps } = harness();
    server = createApp({
      ...deps,
      config: worker.config,
      schedules: SCHEDULES,
      metrics: createMetrics(false),
      temporal: { ...deps.temporal, taskQueue: worker.taskQueue },
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    cronUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => {
      server?.closeAllConnections();
      server?.close(() => resolve());
    });
    await worker?.stop();
    await sim?.stop();
  });
  beforeEach(async () => {
    owner = await newAccount('Nightly Schedule Co');
    projectId = await newProjectId(owner.accountId, { kind: 'service_hosted', host: 'www.schedule.test' });
    collectorSite = `www-${randomBytes(3).toString('hex')}.schedule.test`;
    await harness().db('projects').where({ id: projectId }).update({ analytics_site_id: collectorSite });
    sim.addSite(collectorSite);
  });

  const item = (slug: string, createdDaysAgo: number) => linkedItem(owner.ownerToken, projectId, slug, createdDaysAgo);
  const storedDays = async (contentId: string) =>
    (
      await harness()
        .db('content_analytics_daily')
        .where({ account_id: owner.accountId, content_id: contentId })
        .orderBy('day')
        .select(harness().db.raw(`to_char(day, 'YYYY-MM-DD') as day`), 'views')
    ).map((r) => [r.day, r.views]);

  it('the schedule table runs the nightly rows once a day after midnight UTC, skipping overlaps', () => {
    const entries = SCHEDULES.filter((e) => e.name === 'content-analytics-daily');
    assert.equal(entries.length, 1);
    assert.deepEqual(
      [entries[0].cron, entries[0].workflowType, entries[0].overlap, entries[0].args],
      ['15 2 * * *', 'contentAnalyticsDaily', 'SKIP', []],
    );
  });

  it('POST /api/cron/content-analytics-daily runs the sweep now as a _system job that stores the missing rows', async () => {
    const id = await item('run-now', 3);
    sim.seed(collectorSite, '/blog/run-now', [{ date: day(2), pageviews: 42, visitors: 30, form_submits: 1 }]);
    const res = await callAt(cronUrl, 'POST', '/api/cron/content-analytics-daily', { token: worker.config.CRON_SECRET });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.kind, 'content-analytics-daily');
    const handle = harness().client.workflow.getHandle(res.body.id);
    const summary = (await harness().client.withDeadline(Date.now() + 60_000, () => handle.result())) as ContentAnalyticsDailySummary;
    assert.equal(summary.partial, false);
    assert.ok(summary.projects >= 1 && summary.rows_stored >= 3, JSON.stringify(summary));
    const ours = summary.results.find((r) => r.project_id === projectId);
    assert.ok(ours && ours.status === 'stored', JSON.stringify(summary.results));
    assert.deepEqual(await storedDays(id), [
      [day(3), 0],
      [day(2), 42],
      [day(1), 0],
    ]);
    const run = await handle.describe();
    assert.equal(run.typedSearchAttributes.get(AccountIdKey), SYSTEM_ACCOUNT);
    assert.equal(run.typedSearchAttributes.get(JobKindKey), 'content-analytics-daily');
  });

  it('a run whose budget is spent stops with partial: true; the next run stores what it left', async () => {
    const id = await item('budget', 2);
    const start = (input: object) =>
      harness().client.workflow.execute(contentAnalyticsDailyContract.workflowType, {
        taskQueue: worker.taskQueue,
        workflowId: `test-analytics-${randomUUID()}`,
        args: [input],
      }) as Promise<ContentAnalyticsDailySummary>;
    const spent = await start({ budgetMs: 1 });
    assert.equal(spent.partial, true);
    assert.deepEqual(await storedDays(id), []);
    const next = await start({ daysPerCall: 1 });
    assert.equal(next.partial, false);
    assert.deepEqual(await storedDays(id), [
      [day(2), 0],
      [day(1), 0],
    ]);
  });

  it('the collector down: the project is reported collector_unavailable, nothing is stored, and the run still completes', async () => {
    const id = await item('down', 2);
    sim.unreachable('refuse');
    try {
      const summary = (await harness().client.workflow.execute(contentAnalyticsDailyContract.workflowType, {
        taskQueue: worker.taskQueue,
        workflowId: `test-analytics-${randomUUID()}`,
        args: [{}],
      })) as ContentAnalyticsDailySummary;
      assert.ok(summary.collector_unavailable >= 1, JSON.stringify(summary));
      const ours = summary.results.find((r) => r.project_id === projectId);
      assert.deepEqual([ours?.status, ours && 'code' in ours ? ours.code : null], ['collector_unavailable', 'analytics_unavailable']);
      assert.deepEqual(await storedDays(id), []);
    } finally {
      sim.reachable();
    }
  });
});
