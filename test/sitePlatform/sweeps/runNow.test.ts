import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import {
  ageInstall,
  ageLastCheck,
  connectionRow,
  entryFor,
  inboxItems,
  oauthTenant,
  revokeOnPlatform,
  startSweepWorld,
  type SweepWorld,
} from './sweepKit';

const TOKEN_HEALTH = 'site-platform-token-health';

describe('site platform sweeps started by hand: POST /api/cron/{name} options and the run they start', () => {
  let world: SweepWorld;
  before(async () => {
    world = await startSweepWorld();
  });
  after(async () => {
    await world.close();
  });

  /** Starts a sweep by hand with `body` and answers its result. */
  async function ranNow(name: string, body: unknown): Promise<any> {
    const res = await world.cron(name, undefined, body);
    assert.equal(res.status, 202, res.text);
    const { client } = harness();
    return client.withDeadline(Date.now() + 60_000, () => client.workflow.getHandle(res.body.id).result());
  }

  /** Runs of a sweep visible to Temporal now (hand-started ones included). */
  async function runsOf(name: string): Promise<number> {
    const { client, deps } = harness();
    const query = `AccountId = '_system' AND JobKind = '${name}'`;
    const counted = await client.workflowService.countWorkflowExecutions({ namespace: deps.temporal.namespace, query });
    return Number(counted.count ?? 0);
  }

  it("account_id limits a hand-started token health run to that account: another account's connection is not checked", async () => {
    const [mine, theirs] = [await oauthTenant(world), await oauthTenant(world)];
    await revokeOnPlatform(world, mine);
    await revokeOnPlatform(world, theirs);
    const result = await ranNow(TOKEN_HEALTH, { account_id: mine.accountId });
    assert.equal(result.checked, 1);
    assert.equal(entryFor(result, mine.connectionId).status, 'rejected');
    assert.equal(entryFor(result, theirs.connectionId), undefined);
    assert.equal((await connectionRow(mine.connectionId)).token_rejections, 1);
    const untouched = await connectionRow(theirs.connectionId);
    assert.deepEqual([untouched.token_rejections, untouched.token_checked_at], [0, null]);
  });

  it('disconnect_cap bounds the disconnects of a hand-started token health run: 0 leaves a connection at the threshold connected, reported disconnect_cap', async () => {
    const tenant = await oauthTenant(world);
    await revokeOnPlatform(world, tenant);
    await ranNow(TOKEN_HEALTH, { account_id: tenant.accountId });
    await ageLastCheck(tenant.connectionId, 61);
    const capped = await ranNow(TOKEN_HEALTH, { account_id: tenant.accountId, disconnect_cap: 0 });
    assert.deepEqual([capped.disconnect_cap, capped.capped, capped.disconnected], [0, 1, 0]);
    assert.equal(entryFor(capped, tenant.connectionId).status, 'disconnect_cap');
    assert.equal((await connectionRow(tenant.connectionId)).disconnected_at, null);
    const freed = await ranNow(TOKEN_HEALTH, { account_id: tenant.accountId, disconnect_cap: 1 });
    assert.deepEqual([freed.disconnect_cap, freed.disconnected], [1, 1]);
    assert.ok((await connectionRow(tenant.connectionId)).disconnected_at);
  });

  it("account_id limits a hand-started webhook health run to that account: another account's silent connection gets no inbox item", async () => {
    const [mine, theirs] = [await oauthTenant(world), await oauthTenant(world)];
    await ageInstall(mine.connectionId, 8 * 24);
    await ageInstall(theirs.connectionId, 8 * 24);
    const result = await ranNow('site-platform-webhook-health', { account_id: mine.accountId });
    assert.equal(result.checked, 1);
    assert.equal((await inboxItems(mine.accountId, 'site_platform_webhooks_silent')).length, 1);
    assert.deepEqual(await inboxItems(theirs.accountId, 'site_platform_webhooks_silent'), []);
  });

  it("account_id limits a hand-started webhook URL reconcile run to that account: another account's drifted subscriptions stay as they are", async () => {
    const [mine, theirs] = [await oauthTenant(world), await oauthTenant(world)];
    const { db } = harness();
    const stale = 'https://old-host.example/api/webhooks/site-platform/x/y';
    for (const tenant of [mine, theirs])
      await db('site_platform_webhook_subscriptions').where({ connection_id: tenant.connectionId }).update({ endpoint_url: stale });
    const result = await ranNow('site-platform-webhook-url-reconcile', { account_id: mine.accountId });
    assert.equal(result.drifted, 1);
    assert.ok(entryFor(result, mine.connectionId));
    assert.equal(entryFor(result, theirs.connectionId), undefined);
    const theirRows = await db('site_platform_webhook_subscriptions').where({ connection_id: theirs.connectionId });
    assert.ok(theirRows.length > 0);
    assert.ok(theirRows.every((row: { endpoint_url: string }) => row.endpoint_url === stale));
  });

  it('run-now options are validated: unknown members, out-of-range caps, a malformed id and an option the sweep does not take are 400 validation_failed, an account that does not exist 400 invalid_reference; nothing starts', async () => {
    const before = await runsOf(TOKEN_HEALTH);
    const beforeRetention = await runsOf('site-platform-event-retention');
    const refused: Array<[string, unknown, string]> = [
      [TOKEN_HEALTH, { accountId: randomUUID() }, 'validation_failed'],
      [TOKEN_HEALTH, { disconnect_cap: 101 }, 'validation_failed'],
      [TOKEN_HEALTH, { disconnect_cap: -1 }, 'validation_failed'],
      [TOKEN_HEALTH, { disconnect_cap: 1.5 }, 'validation_failed'],
      [TOKEN_HEALTH, { disconnect_cap: '5' }, 'validation_failed'],
      [TOKEN_HEALTH, { account_id: 'not-a-uuid' }, 'validation_failed'],
      [TOKEN_HEALTH, { account_id: randomUUID() }, 'invalid_reference'],
      ['site-platform-webhook-health', { disconnect_cap: 3 }, 'validation_failed'],
      ['site-platform-event-retention', { account_id: randomUUID() }, 'validation_failed'],
    ];
    for (const [name, body, code] of refused) {
      const res = await world.cron(name, undefined, body);
      assert.deepEqual([res.status, res.body.code], [400, code], `${name} ${JSON.stringify(body)}: ${res.text}`);
    }
    const invalid = await world.cron(TOKEN_HEALTH, undefined, { account_id: randomUUID() });
    assert.equal(invalid.body.field, 'account_id');
    const notTaken = await world.cron('site-platform-webhook-health', undefined, { disconnect_cap: 3 });
    assert.equal(notTaken.body.errors[0].path, 'body.disconnect_cap');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(await runsOf(TOKEN_HEALTH), before);
    assert.equal(await runsOf('site-platform-event-retention'), beforeRetention);
  });

  it("GET /api/schedules/{name}/runs/{id} answers a finished sweep's result, partial flag, options and per-account counts", async () => {
    const [one, two] = [await oauthTenant(world), await oauthTenant(world)];
    await revokeOnPlatform(world, one);
    const started = await world.cron(TOKEN_HEALTH, undefined, { account_id: one.accountId, disconnect_cap: 2 });
    assert.equal(started.status, 202, started.text);
    const run = await eventually(
      () => world.callApp('GET', started.body.run_url),
      (res) => res.status === 200 && res.body.status !== 'running',
      60_000,
      'the run to close',
    );
    assert.deepEqual([run.body.status, run.body.partial, run.body.started_by], ['completed', false, 'run_now']);
    assert.deepEqual(run.body.options, { account_id: one.accountId, disconnect_cap: 2 });
    assert.deepEqual(run.body.accounts, [{ account_id: one.accountId, total: 1, by_status: { rejected: 1 } }]);
    assert.equal(run.body.result.checked, 1);
    assert.ok(!run.body.accounts.some((a: { account_id: string }) => a.account_id === two.accountId));
    const listed = await eventually(
      () => world.callApp('GET', `/api/schedules/${TOKEN_HEALTH}/runs?limit=50`),
      (res) =>
        res.status === 200 &&
        res.body.data.some((r: { id: string; status: string }) => r.id === started.body.id && r.status === 'completed'),
      10_000,
      'the run listed',
    );
    const item = listed.body.data.find((r: { id: string }) => r.id === started.body.id);
    assert.deepEqual([item.partial, item.accounts], [false, run.body.accounts]);
  });
});
