import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { harness } from '../../helpers/harness';
import { newAccount } from '../../helpers/accounts';
import { bustCredentials, resolveCredentials } from '../../../src/sitePlatform/connections';
import { addSite, connectWithSiteToken, depsOf, startSiteWorld, type SiteWorld } from './fixtures';

/** Connection lookups (the resolution's first statement) sent while `run` runs. */
async function connectionLookups(run: () => Promise<unknown>): Promise<number> {
  let lookups = 0;
  const onQuery = (q: { sql: string }) => {
    if (/from "site_platform_connections"/.test(q.sql)) lookups++;
  };
  harness().db.on('query', onQuery);
  try {
    await run();
  } finally {
    harness().db.off('query', onQuery);
  }
  return lookups;
}

describe('site platform credentials off the request path (60 s rule)', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  it('concurrent misses share one resolution', async () => {
    const account = await newAccount();
    const site = addSite(world).id;
    const made = await connectWithSiteToken(world, account, [site]);
    bustCredentials(account.accountId);
    const deps = depsOf(world);
    let answers: unknown[] = [];
    const lookups = await connectionLookups(async () => {
      answers = await Promise.all(Array.from({ length: 8 }, () => resolveCredentials(deps, account.accountId, { siteId: site })));
    });
    assert.equal(lookups, 1);
    for (const a of answers) assert.equal((a as { connectionId: string } | null)?.connectionId, made.body.connection.id);
  });

  it('past 45 s a cached entry is still served while one background resolution replaces it; none lives past 60 s', async () => {
    const account = await newAccount();
    let now = Date.now();
    const deps = depsOf(world, () => now);
    const site = addSite(world).id;
    const made = await connectWithSiteToken(world, account, [site]);
    const first = await resolveCredentials(deps, account.accountId, { siteId: site });
    assert.equal(first?.connectionId, made.body.connection.id);
    // Changed behind the cache's back (no bust).
    await harness().db('site_platform_connections').where({ id: made.body.connection.id }).update({ disconnected_at: new Date() });
    now += 44_000;
    assert.equal(await resolveCredentials(deps, account.accountId, { siteId: site }), first, 'younger than 45 s: served as is');
    now += 2_000;
    assert.equal(await resolveCredentials(deps, account.accountId, { siteId: site }), first, 'served while the refresh runs');
    let refreshed: unknown = first;
    for (let i = 0; i < 100 && refreshed !== null; i++) {
      await sleep(10);
      refreshed = await resolveCredentials(deps, account.accountId, { siteId: site });
    }
    assert.equal(refreshed, null, 'the background resolution replaced the entry before 60 s');
  });

  it('a resolution that a bust overtook is answered to its caller but never stored', async () => {
    const account = await newAccount();
    const deps = depsOf(world);
    const site = addSite(world).id;
    const made = await connectWithSiteToken(world, account, [site]);
    bustCredentials(account.accountId);
    // A disconnect's bust lands while the resolution's lookup is on the wire.
    const bustOnLookup = (q: { sql: string }) => {
      if (!/from "site_platform_connections"/.test(q.sql)) return;
      harness().db.off('query', bustOnLookup);
      bustCredentials(account.accountId);
    };
    harness().db.on('query', bustOnLookup);
    const underWay = await resolveCredentials(deps, account.accountId, { siteId: site });
    assert.equal(underWay?.connectionId, made.body.connection.id, 'its caller gets what it read');
    const lookups = await connectionLookups(() => resolveCredentials(deps, account.accountId, { siteId: site }));
    assert.equal(lookups, 1, 'the next call reads again: nothing read before the bust was kept');
  });
});
