import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { sitePlatformFormsBackfillContract, type FormsBackfillResult } from '../../../workflows/sitePlatformFormsBackfill.contract';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import { newTenant } from '../operations/fixtures';
import { ledgerCount, seedSubmissions, startFormsWorker, startFormsWorld, type FormsWorld } from './fixtures';

const SUBMISSIONS = 1000;

describe('forms backfill survives a killed worker', () => {
  let world: FormsWorld;
  before(async () => {
    world = await startFormsWorld({ worker: false });
  });
  after(async () => {
    await world?.close();
  });

  it(`a worker stopped mid-backfill of ${SUBMISSIONS} submissions: a new worker finishes with exactly ${SUBMISSIONS} rows, none duplicated`, async function () {
    this.timeout(120_000);
    const t = await newTenant(world);
    const { submissions } = seedSubmissions(world, t.siteId, SUBMISSIONS);
    const { client, db } = harness();
    const accountId = t.account.accountId;
    const connection = await db('site_platform_connections').where({ account_id: accountId }).first();

    const first = await startFormsWorker(world.config, world.taskQueue);
    // 20 a page (the platform allows 100): 50 pages, so the stop lands in the middle (and stays within 60 requests).
    const handle = await client.workflow.start(sitePlatformFormsBackfillContract.workflowType, {
      taskQueue: world.taskQueue,
      workflowId: `test-forms-backfill-kill:${randomUUID()}`,
      args: [{ accountId, projectId: t.projectId, connectionId: connection.id, siteId: t.siteId, limit: SUBMISSIONS, pageSize: 20 }],
    });
    await eventually(
      () => ledgerCount(accountId),
      (n) => n >= 200,
      60_000,
      '200 rows imported',
    );
    await first.stop();
    const atStop = await ledgerCount(accountId);
    assert.ok(atStop < SUBMISSIONS, `stopped mid-way (${atStop} rows)`);
    assert.equal((await handle.describe()).status.name, 'RUNNING');

    const second = await startFormsWorker(world.config, world.taskQueue);
    let result: FormsBackfillResult;
    try {
      result = await client.withDeadline(Date.now() + 90_000, () => handle.result());
    } finally {
      await second.stop();
    }
    assert.equal(result.fetched, SUBMISSIONS);
    assert.equal(result.imported + result.already_present, SUBMISSIONS, 'a page redone after the stop found its rows present');
    assert.equal(result.partial, false);

    const keys: string[] = await db('form_submissions').where({ account_id: accountId }).pluck('idempotency_key');
    assert.equal(keys.length, SUBMISSIONS);
    assert.deepEqual(new Set(keys), new Set(submissions.map((s) => `platform:${accountId}:${s.id}`)));
    assert.equal((await db('workflow_trigger_outbox').where({ account_id: accountId, trigger: 'form_submitted' })).length, 0);

    // Determinism guard: the history (a worker change in the middle) replays with the current bundle.
    await Worker.runReplayHistory({ workflowBundle: harness().bundle }, await handle.fetchHistory(), handle.workflowId);
  });
});
