import assert from 'node:assert/strict';
import { withTargetLock } from '../../../src/sitePlatform/operations/locks';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { ALL_SCOPES, addSite, startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { newTenant } from '../operations/fixtures';
import { burstUntilRefused } from './burst';

describe('doc2 Limits', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  it('per-connection request budget: a burst is refused locally with a coded 429 rate_limited and retry_after_seconds, never sent', async () => {
    const t = await newTenant(world);
    const { res, sent, after } = await burstUntilRefused(world, t);
    assert.deepEqual([res.body.code, res.body.upstreamStatus, sent], ['rate_limited', undefined, false], res.text);
    assert.ok(after <= 60, `refused within the 60 a minute of the lower plan, after ${after}`);
    assert.ok(res.body.retry_after_seconds >= 1 && res.body.retry_after_seconds <= 60);
    assert.equal(res.headers.get('retry-after'), String(res.body.retry_after_seconds));
  });

  it('per-connection request budget: "60 or 120 per minute by plan" is stored from the first introspection', async () => {
    const account = await newAccount();
    const site = addSite(world);
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id], plan: 120 });
    const res = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.connection.rate_limit_per_minute, 120);
  });

  it('per-connection request budget: a 120 plan connection is sized from X-RateLimit-Limit and takes more than 60 in a burst', async () => {
    const account = await newAccount();
    const site = addSite(world);
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id], plan: 120 });
    const made = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
    assert.equal(made.status, 201, made.text);
    const tenant = { account, siteId: site.id, collectionId: '', itemIds: [], pageId: '', projectId: '' };
    const { res, sent, after } = await burstUntilRefused(world, tenant);
    assert.deepEqual([res.body.code, sent], ['rate_limited', false]);
    assert.ok(after > 60 && after <= 120, `took ${after} before the local refusal`);
  });

  it('single-target write transaction: "90 seconds, one lock per target"', async () => {
    const { db } = harness();
    const { accountId } = await newAccount();
    const window = await withTargetLock(db, accountId, 'item_id:ninety', async () => {
      const row = await db.raw(
        `select extract(epoch from (expires_at - now())) as left from site_platform_write_locks where account_id = ? and target = ?`,
        [accountId, 'item_id:ninety'],
      );
      await assert.rejects(
        withTargetLock(db, accountId, 'item_id:ninety', async () => 'second'),
        { code: 'write_locked' },
      );
      return Number(row.rows[0].left);
    });
    assert.ok(window > 89 && window <= 90, `lock window ${window}s`);
  });
});
