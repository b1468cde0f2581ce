import assert from 'node:assert/strict';
import { Worker } from '@temporalio/worker';
import { SCHEDULES } from '../../../src/app/schedules';
import { SITE_PLATFORM_SWEEP_SCHEDULES } from '../../../src/sitePlatform/sweeps/schedules';
import { AccountIdKey, JobKindKey, SYSTEM_ACCOUNT } from '../../../src/temporal/searchAttributes';
import { harness } from '../../helpers/harness';
import { ageInstall, inboxItems, oauthTenant, replaceWithUnknownToken, startSweepWorld, type SweepWorld } from './sweepKit';

/** The four doc2 sweeps: crons in UTC (our choice, README "Site platform sweeps") and their workflows. */
const EXPECTED = {
  'site-platform-token-health': ['20 */6 * * *', 'sitePlatformTokenHealth'],
  'site-platform-webhook-health': ['40 * * * *', 'sitePlatformWebhookHealth'],
  'site-platform-webhook-url-reconcile': ['10 * * * *', 'sitePlatformWebhookUrlReconcile'],
  'site-platform-event-retention': ['25 3 * * *', 'sitePlatformEventRetention'],
} as const;

describe('site platform sweep schedules and run-now routes', () => {
  let world: SweepWorld;
  before(async () => {
    world = await startSweepWorld();
  });
  after(async () => {
    await world.close();
  });

  it('the schedule table has each sweep once, with its cron, overlap SKIP, default arguments and a description', () => {
    assert.equal(SITE_PLATFORM_SWEEP_SCHEDULES.length, 4);
    for (const [name, [cron, workflowType]] of Object.entries(EXPECTED)) {
      const entries = SCHEDULES.filter((e) => e.name === name);
      assert.equal(entries.length, 1, name);
      assert.deepEqual([entries[0].cron, entries[0].workflowType, entries[0].overlap, entries[0].args], [cron, workflowType, 'SKIP', []]);
      assert.ok(entries[0].description.length > 40);
    }
  });

  for (const name of Object.keys(EXPECTED)) {
    it(`POST /api/cron/${name} with the cron secret answers 202 and runs the sweep now as a _system job that completes`, async () => {
      const res = await world.cron(name);
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.kind, name);
      const handle = harness().client.workflow.getHandle(res.body.id);
      const result = await harness().client.withDeadline(Date.now() + 60_000, () => handle.result());
      assert.equal(typeof result, 'object');
      assert.equal((result as { partial: boolean }).partial, false);
      const run = await handle.describe();
      assert.equal(run.type, EXPECTED[name as keyof typeof EXPECTED][1]);
      assert.equal(run.typedSearchAttributes.get(AccountIdKey), SYSTEM_ACCOUNT);
      assert.equal(run.typedSearchAttributes.get(JobKindKey), name);
    });
  }

  it('a cron call without the secret, or with a wrong one, answers 401 and starts nothing', async () => {
    const before = world.site.sim.requests().length;
    for (const token of ['', 'not-the-cron-secret-not-the-cron-secret']) {
      const answer = await world.cron('site-platform-token-health', token);
      assert.equal(answer.status, 401, answer.text);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(world.site.sim.requests().length, before, 'no sweep ran: the platform saw no introspection');
  });

  it('the scheduled runs file inbox items once: a second run-now raises none of the same items again', async () => {
    const tenant = await oauthTenant(world);
    await ageInstall(tenant.connectionId, 8 * 24);
    for (let i = 0; i < 2; i++) {
      const res = await world.cron('site-platform-webhook-health');
      assert.equal(res.status, 202, res.text);
      await harness().client.withDeadline(Date.now() + 60_000, () => harness().client.workflow.getHandle(res.body.id).result());
    }
    assert.equal((await inboxItems(tenant.accountId, 'site_platform_webhooks_silent')).length, 1);
  });

  it('the sweeps replay from their recorded histories with the current bundle (determinism guard)', async () => {
    const { client } = harness();
    // Work for the branches: a rejected token, a silent connection.
    const rejected = await oauthTenant(world);
    await replaceWithUnknownToken(world, rejected.connectionId);
    await ageInstall(rejected.connectionId, 8 * 24);
    const histories = [];
    for (const name of Object.keys(EXPECTED)) {
      const res = await world.cron(name);
      const handle = client.workflow.getHandle(res.body.id);
      await client.withDeadline(Date.now() + 60_000, () => handle.result());
      histories.push({ workflowId: res.body.id, history: await handle.fetchHistory() });
    }
    let replayed = 0;
    for await (const result of Worker.runReplayHistories({ workflowBundle: harness().bundle }, histories)) {
      assert.equal(result.error, undefined, `${result.workflowId}: ${String(result.error)}`);
      replayed++;
    }
    assert.equal(replayed, 4);
  });
});
