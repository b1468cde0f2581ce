import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startJob, type StartedJob } from '../../src/temporal/jobs';
import { sitePlatformFormsBackfillContract, type FormsBackfillResult } from '../../workflows/sitePlatformFormsBackfill.contract';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { eventually, getJob } from '../jobs/jobTestKit';
import { newTenant, type Tenant } from '../sitePlatform/operations/fixtures';
import { seedSubmissions, startFormsWorker, startFormsWorld, type FormsWorker, type FormsWorld } from '../sitePlatform/forms/fixtures';
import { killProcess, loadClusterState, restartProcess, type ClusterState } from './launcher';

/*
 * Real jobs with side effects in Postgres (forms backfills: each platform page one activity, its rows in the forms
 * ledger) run on the cluster while one of its two history processes is killed with SIGKILL and later restarted. The
 * shards it owned move to the other history process and back; every job must complete exactly once, with every
 * submission in the ledger exactly once.
 */

const JOBS = 50;
const SUBMISSIONS = 20;
const PAGE = 5;

interface Backfill {
  tenant: Tenant;
  submissionIds: string[];
  job: StartedJob<typeof sitePlatformFormsBackfillContract>;
  runId: string;
}

async function ledgerTotal(accountIds: string[]): Promise<number> {
  const [{ n }] = await harness().db('form_submissions').whereIn('account_id', accountIds).count({ n: '*' });
  return Number(n);
}

/** The innermost cause of a job's failure (the activity's error), for the assertion message. */
function failureText(err: unknown): string {
  let e = err as Error | undefined;
  while (e?.cause instanceof Error) e = e.cause;
  return e?.message ?? String(err);
}

/** Accounts whose ledger does not hold all their submissions yet: their jobs are still running. */
async function unfinished(accountIds: string[], expected: number): Promise<number> {
  const rows: Array<{ n: string }> = await harness()
    .db('form_submissions')
    .whereIn('account_id', accountIds)
    .groupBy('account_id')
    .select(harness().db.raw('count(*) as n'));
  return accountIds.length - rows.filter((row) => Number(row.n) === expected).length;
}

describe('a history process killed mid-run', function () {
  this.timeout(300_000);
  let world: FormsWorld;
  let worker: FormsWorker;
  let state: ClusterState;
  let killed: string | undefined;

  before(async () => {
    state = loadClusterState();
    world = await startFormsWorld({ worker: false });
    // The simulated platform answers from this busy process, next to a cluster on the same cores: a page slower than
    // the world's 2 s bound would be a platform timeout, which is not what this test is about.
    worker = await startFormsWorker({ ...world.config, SITE_PLATFORM_TIMEOUT_MS: 15_000 }, world.taskQueue);
  });
  after(async () => {
    if (killed) await restartProcess(state, killed);
    await worker?.stop();
    await world?.close();
  });

  it(`${JOBS} running jobs each complete exactly once, with every side effect in Postgres exactly once`, async () => {
    const history = state.processes.filter((p) => p.service === 'history');
    assert.ok(history.length >= 2, `the cluster runs ${history.length} history process(es); the test needs two`);
    const { deps, db } = harness();
    const temporal = { ...deps.temporal, taskQueue: world.taskQueue };

    // Tenants first (five at a time), then every job at once, so that all of them run when the process dies.
    const tenants: Tenant[] = [];
    while (tenants.length < JOBS)
      tenants.push(...(await Promise.all(Array.from({ length: Math.min(5, JOBS - tenants.length) }, () => newTenant(world)))));
    const backfills: Backfill[] = await Promise.all(
      tenants.map(async (tenant) => {
        const accountId = tenant.account.accountId;
        const { submissions } = seedSubmissions(world, tenant.siteId, SUBMISSIONS);
        const connection = await db('site_platform_connections').where({ account_id: accountId }).first();
        const job = await startJob(temporal, deps.metrics, sitePlatformFormsBackfillContract, {
          accountId,
          requestId: randomUUID(),
          args: [
            {
              accountId,
              projectId: tenant.projectId,
              connectionId: connection.id,
              siteId: tenant.siteId,
              limit: SUBMISSIONS,
              pageSize: PAGE,
            },
          ],
        });
        const { runId } = await job.handle.describe();
        return { tenant, submissionIds: submissions.map((s) => s.id), job, runId };
      }),
    );
    const accountIds = backfills.map((b) => b.tenant.account.accountId);
    const total = JOBS * SUBMISSIONS;

    // Kill one history process while the jobs are under way: some rows in, most still to come.
    await eventually(
      () => ledgerTotal(accountIds),
      (n) => n >= total / 10,
      120_000,
      `a tenth of the ${total} submissions imported`,
    );
    killed = history[0].name;
    await killProcess(state, killed);
    const atKill = await ledgerTotal(accountIds);
    const running = await unfinished(accountIds, SUBMISSIONS);
    assert.ok(running >= JOBS / 2, `killed mid-run: ${atKill} of ${total} rows in, ${running} of ${JOBS} jobs not done`);

    // The surviving history process takes over the shards; the jobs go on without the killed one for a while.
    await eventually(
      () => ledgerTotal(accountIds),
      (n) => n > atKill,
      120_000,
      'progress with one history process down',
    );
    await restartProcess(state, killed);
    killed = undefined;

    const outcomes = await Promise.allSettled(
      backfills.map((b) => harness().client.withDeadline(Date.now() + 180_000, () => b.job.handle.result())),
    );
    const failed = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [`${backfills[i].job.id}: ${failureText(o.reason)}`] : []));
    assert.deepEqual(failed, [], 'every job completed');
    for (const [i, b] of backfills.entries()) {
      const accountId = b.tenant.account.accountId;
      const result = (outcomes[i] as PromiseFulfilledResult<FormsBackfillResult>).value;
      assert.equal(result.fetched, SUBMISSIONS, `job ${b.job.id}`);
      assert.equal(result.imported + result.already_present, SUBMISSIONS, `job ${b.job.id}`);
      assert.equal(result.partial, false, `job ${b.job.id}`);

      // Exactly once in the ledger: one row per submission, under the submission's idempotency key.
      const keys: string[] = await db('form_submissions').where({ account_id: accountId }).pluck('idempotency_key');
      assert.equal(keys.length, SUBMISSIONS, `ledger rows of job ${b.job.id}`);
      assert.deepEqual(new Set(keys), new Set(b.submissionIds.map((id) => `platform:${accountId}:${id}`)));

      // Exactly one run of the job, completed, and the API reads and lists it so, once.
      const described = await b.job.handle.describe();
      assert.equal(described.status.name, 'COMPLETED');
      assert.equal(described.runId, b.runId, `job ${b.job.id} ran once: its latest run is the one started`);
      const token = b.tenant.account.ownerToken;
      const read = await getJob(token, b.job.id);
      assert.deepEqual([read.status, read.body.status], [200, 'completed'], read.text);
      await eventually(
        () => call('GET', `/api/jobs?kind=${sitePlatformFormsBackfillContract.jobKind}`, { token }),
        (res) =>
          JSON.stringify(res.body?.data?.map((job: { id: string; status: string }) => [job.id, job.status])) ===
          JSON.stringify([[b.job.id, 'completed']]),
        20_000,
        `job ${b.job.id} listed once, completed`,
      );
    }
    assert.equal(await ledgerTotal(accountIds), total);
  });
});
