import assert from 'node:assert/strict';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { disconnect } from '../../../src/sitePlatform/connections/service';
import { checkConnectionToken } from '../../../src/sitePlatform/sweeps/tokenHealth';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { addSite, authorize, newKey, openCallback } from '../connections/fixtures';
import { sitePlatformTokenHealthContract } from '../../../workflows/sitePlatformTokenHealth.contract';
import {
  ageLastCheck,
  connectionRow,
  entryFor,
  inboxItems,
  oauthTenant,
  platformProject,
  replaceWithUnknownToken,
  revokeOnPlatform,
  siteTokenConnection,
  startSweepWorld,
  tokenOf,
  type SweepWorld,
} from './sweepKit';

const DISCONNECTED = 'site_platform_token_disconnected';

describe('site-platform-token-health sweep', () => {
  let world: SweepWorld;
  before(async () => {
    world = await startSweepWorld();
  });
  after(async () => {
    await world.close();
  });

  const sweep = (accountId: string, input: Record<string, unknown> = {}) =>
    world.run(sitePlatformTokenHealthContract, { accountId, ...input });
  const revokeCalls = () => world.site.sim.requests().filter((r) => r.path.includes('revoke_authorization')).length;
  const capabilities = (token: string, projectId: string) =>
    world.site.app.call('GET', `/api/builder/site-platform/${projectId}/cms-capabilities`, { token });

  it('a token rejected once is not disconnected; rejected again on the next run an hour later, the connection is disconnected without a revoke call, its projects fall back to the native CMS and an inbox item keeps their ids', async () => {
    const tenant = await oauthTenant(world);
    const projectId = await platformProject(world, tenant.account, tenant.siteId);
    await revokeOnPlatform(world, tenant);

    const first = await sweep(tenant.accountId);
    assert.deepEqual(
      [entryFor(first, tenant.connectionId).status, entryFor(first, tenant.connectionId).rejections, first.disconnected],
      ['rejected', 1, 0],
    );
    const between = await connectionRow(tenant.connectionId);
    assert.equal(between.disconnected_at, null);
    assert.ok(between.access_token_enc);
    assert.equal(between.token_rejections, 1);
    assert.deepEqual(await inboxItems(tenant.accountId, DISCONNECTED), []);

    await ageLastCheck(tenant.connectionId, 61);
    const revokesBefore = revokeCalls();
    const second = await sweep(tenant.accountId);
    const entry = entryFor(second, tenant.connectionId);
    assert.deepEqual([entry.status, entry.rejections, entry.reverted_project_ids], ['disconnected', 2, [projectId]]);
    assert.equal(second.disconnected, 1);
    assert.equal(revokeCalls(), revokesBefore, 'the token is already rejected: no revoke call');

    const after = await connectionRow(tenant.connectionId);
    assert.ok(after.disconnected_at);
    assert.equal(after.access_token_enc, null);
    const fallen = await capabilities(tenant.account.ownerToken, projectId);
    assert.equal(fallen.body.provider, 'native');
    assert.ok(fallen.body.reverted_at);
    const items = await inboxItems(tenant.accountId, DISCONNECTED);
    assert.equal(items.length, 1);
    assert.equal(items[0].dedup_key, `site-platform:token-disconnected:${tenant.connectionId}`);
    assert.deepEqual(items[0].body.reverted_project_ids, [projectId]);
    assert.equal(items[0].body.connection_id, tenant.connectionId);
    assert.equal(items[0].urgency, 'urgent');
  });

  it('two rejections less than an hour apart count once: a run-now right after a scheduled run is not a second vote', async () => {
    const tenant = await oauthTenant(world);
    await revokeOnPlatform(world, tenant);
    await sweep(tenant.accountId);
    await ageLastCheck(tenant.connectionId, 30);
    const again = await sweep(tenant.accountId);
    assert.deepEqual([entryFor(again, tenant.connectionId).status, entryFor(again, tenant.connectionId).rejections], ['rejected', 1]);
    const row = await connectionRow(tenant.connectionId);
    assert.equal(row.disconnected_at, null);
    assert.equal(row.token_rejections, 1);
  });

  it('a transient 5xx or a timeout is "unknown": it neither counts as a rejection nor resets the count', async () => {
    const tenant = await oauthTenant(world);
    await revokeOnPlatform(world, tenant);
    await sweep(tenant.accountId);
    await ageLastCheck(tenant.connectionId, 120);

    world.site.sim.injectFault({ kind: '5xx', status: 503, path: '/token/introspect' });
    const outage = await sweep(tenant.accountId);
    assert.deepEqual(
      [entryFor(outage, tenant.connectionId).status, entryFor(outage, tenant.connectionId).code],
      ['unknown', 'platform_upstream'],
    );
    world.site.sim.injectFault({ kind: 'timeout', path: '/token/introspect' });
    const slow = await sweep(tenant.accountId);
    assert.deepEqual(
      [entryFor(slow, tenant.connectionId).status, entryFor(slow, tenant.connectionId).code],
      ['unknown', 'platform_timeout'],
    );
    world.site.sim.clearFaults();
    let row = await connectionRow(tenant.connectionId);
    assert.deepEqual([row.token_rejections, row.disconnected_at], [1, null], 'neither counted nor reset');

    // The next real answer is the second rejection: the outage neither saved nor doomed the connection.
    const next = await sweep(tenant.accountId);
    assert.equal(entryFor(next, tenant.connectionId).status, 'disconnected');
    row = await connectionRow(tenant.connectionId);
    assert.ok(row.disconnected_at);
  });

  it('a successful introspection resets the rejection count and refreshes scope, rate limit and last_introspected_at', async () => {
    const tenant = await oauthTenant(world);
    const { db } = harness();
    await db('site_platform_connections')
      .where({ id: tenant.connectionId })
      .update({
        token_rejections: 1,
        token_checked_at: db.raw(`now() - interval '2 hours'`),
        scope: 'sites:read',
        rate_limit_per_minute: null,
        last_introspected_at: db.raw(`now() - interval '30 days'`),
      });
    const summary = await sweep(tenant.accountId);
    assert.deepEqual([summary.checked, summary.healthy, entryFor(summary, tenant.connectionId)], [1, 1, undefined]);
    const row = await connectionRow(tenant.connectionId);
    assert.equal(row.token_rejections, 0);
    assert.ok(row.scope.split(',').includes('cms:write'), row.scope);
    assert.equal(row.rate_limit_per_minute, 60);
    assert.ok(Date.now() - new Date(row.last_introspected_at).getTime() < 60_000);
  });

  it('a new credential starts with a clean rejection count: one rejection, a reconnect, one more rejection an hour later leaves the connection connected', async () => {
    const tenant = await oauthTenant(world);
    await revokeOnPlatform(world, tenant);
    const first = entryFor(await sweep(tenant.accountId), tenant.connectionId);
    assert.deepEqual([first.status, first.rejections], ['rejected', 1]);

    const reconnect = { intent: 'site_reconnect', connection_id: tenant.connectionId };
    const reconnected = await openCallback(await authorize(world.site, tenant.account, reconnect));
    assert.equal(reconnected.status, 200, reconnected.text);
    assert.equal(reconnected.body.connection.id, tenant.connectionId, 'the same row, token refreshed');
    const fresh = await connectionRow(tenant.connectionId);
    assert.deepEqual([fresh.token_rejections, fresh.token_checked_at], [0, null]);

    // The next run, an hour later, finds the new token rejected too: that is the new credential's first rejection.
    await ageLastCheck(tenant.connectionId, 61);
    await revokeOnPlatform(world, tenant);
    const second = await sweep(tenant.accountId);
    const entry = entryFor(second, tenant.connectionId);
    assert.deepEqual([entry.status, entry.rejections, second.disconnected], ['rejected', 1, 0]);
    const row = await connectionRow(tenant.connectionId);
    assert.equal(row.disconnected_at, null);
    assert.ok(row.access_token_enc);
  });

  it('a new site token pasted over a rejected one starts with a clean rejection count', async () => {
    const account = await newAccount();
    const siteId = addSite(world.site, 'Pasted').id;
    const connectionId = await siteTokenConnection(world, account, [siteId]);
    await replaceWithUnknownToken(world, connectionId);
    const deps = { ...harness().deps, config: world.config };
    const rejected = await checkConnectionToken(
      deps,
      { accountId: account.accountId, connectionId, authKind: 'site_token' },
      { mayDisconnect: true },
    );
    assert.deepEqual([rejected.status, rejected.rejections], ['rejected', 1]);

    assert.equal(await siteTokenConnection(world, account, [siteId]), connectionId, 'the account default is refreshed in place');
    const row = await connectionRow(connectionId);
    assert.deepEqual([row.token_rejections, row.token_checked_at], [0, null]);
  });

  it('over the disconnect cap, connections at the threshold are reported disconnect_cap and stay connected until the next run', async () => {
    const account = await newAccount();
    const siteId = addSite(world.site, 'Capped').id;
    const ids = [await siteTokenConnection(world, account, [siteId])];
    for (let i = 0; i < 2; i++) {
      const projectId = await platformProject(world, account, siteId);
      ids.push(await siteTokenConnection(world, account, [siteId], { project_id: projectId, site_id: siteId }));
    }
    for (const id of ids) await replaceWithUnknownToken(world, id);
    await sweep(account.accountId);
    for (const id of ids) await ageLastCheck(id, 61);

    const capped = await sweep(account.accountId, { disconnectCap: 1 });
    assert.deepEqual([capped.disconnect_cap, capped.disconnected, capped.capped], [1, 1, 2]);
    const statuses = ids.map((id) => entryFor(capped, id).status).sort();
    assert.deepEqual(statuses, ['disconnect_cap', 'disconnect_cap', 'disconnected']);
    const live = await harness().db('site_platform_connections').whereIn('id', ids).whereNull('disconnected_at');
    assert.equal(live.length, 2, 'the capped ones stay connected');

    const next = await sweep(account.accountId);
    assert.equal(next.disconnected, 2);
    assert.equal((await harness().db('site_platform_connections').whereIn('id', ids).whereNull('disconnected_at')).length, 0);
    assert.equal((await inboxItems(account.accountId, DISCONNECTED)).length, 3, 'one item per disconnected connection');
  });

  it('a token sealed under the previous key is re-wrapped under the current key (and still introspected)', async () => {
    const account = await newAccount();
    const siteId = addSite(world.site, 'Rotated').id;
    const id = await siteTokenConnection(world, account, [siteId]);
    const token = await tokenOf(world, id);
    const underPrevious = createTokenCipher(world.keys.previous).encrypt(token);
    await harness().db('site_platform_connections').where({ id }).update({ access_token_enc: underPrevious });

    const summary = await sweep(account.accountId);
    assert.deepEqual([summary.rewrapped, summary.healthy], [1, 1]);
    const row = await connectionRow(id);
    assert.notEqual(row.access_token_enc, underPrevious);
    assert.deepEqual(createTokenCipher(world.keys.current).decrypt(row.access_token_enc), { plaintext: token, rewrap: false });
    assert.equal((await sweep(account.accountId)).rewrapped, 0, 'done once');
  });

  it('a token no configured key opens is reported failed with one inbox item, deduplicated across runs', async () => {
    const account = await newAccount();
    const siteId = addSite(world.site, 'Lost key').id;
    const id = await siteTokenConnection(world, account, [siteId]);
    await harness()
      .db('site_platform_connections')
      .where({ id })
      .update({ access_token_enc: createTokenCipher(newKey()).encrypt('a-token-under-a-lost-key') });
    const first = await sweep(account.accountId);
    assert.deepEqual(
      [entryFor(first, id).status, entryFor(first, id).code, entryFor(first, id).inbox_item_created],
      ['failed', 'site_platform_token_unreadable', true],
    );
    const second = await sweep(account.accountId);
    assert.equal(entryFor(second, id).inbox_item_created, false);
    const items = await inboxItems(account.accountId, 'site_platform_token_unreadable');
    assert.equal(items.length, 1);
    assert.equal((await connectionRow(id)).disconnected_at, null, 'our key problem never disconnects');
  });

  it('an attempt that disconnected but died before its inbox item is finished by the activity retry, with the reverted project ids', async () => {
    const tenant = await oauthTenant(world);
    const projectId = await platformProject(world, tenant.account, tenant.siteId);
    await harness().db('site_platform_connections').where({ id: tenant.connectionId }).update({ token_rejections: 2 });
    const deps = { ...harness().deps, config: world.config };
    // The first attempt's disconnect (no revoke: the token is already rejected) …
    const gone = await disconnect(deps, tenant.accountId, tenant.connectionId, { revoke: false });
    assert.deepEqual([gone.revocation, gone.revertedProjectIds], ['not_applicable', [projectId]]);
    assert.deepEqual(await inboxItems(tenant.accountId, DISCONNECTED), []);
    // … and the retry of the same activity.
    const ref = { accountId: tenant.accountId, connectionId: tenant.connectionId, authKind: 'oauth' as const };
    const retried = await checkConnectionToken(deps, ref, { mayDisconnect: true });
    assert.deepEqual([retried.status, retried.revertedProjectIds, retried.inboxItemCreated], ['disconnected', [projectId], true]);
    const items = await inboxItems(tenant.accountId, DISCONNECTED);
    assert.deepEqual(
      items.map((i) => i.body.reverted_project_ids),
      [[projectId]],
    );
    assert.equal((await checkConnectionToken(deps, ref, { mayDisconnect: true })).inboxItemCreated, false, 'one item however often');
  });

  it('a run out of budget stops cleanly and answers partial: true', async () => {
    const tenant = await oauthTenant(world);
    const summary = await sweep(tenant.accountId, { budgetMs: 1, pageSize: 1 });
    assert.equal(summary.partial, true);
  });

  it('the token is never in the sweep result or the inbox item', async () => {
    const tenant = await oauthTenant(world);
    const token = await tokenOf(world, tenant.connectionId);
    await revokeOnPlatform(world, tenant);
    const first = await sweep(tenant.accountId);
    await ageLastCheck(tenant.connectionId, 61);
    const second = await sweep(tenant.accountId);
    const items = await inboxItems(tenant.accountId, DISCONNECTED);
    assert.equal(items.length, 1);
    for (const text of [JSON.stringify(first), JSON.stringify(second), JSON.stringify(items)]) assert.ok(!text.includes(token));
  });
});
