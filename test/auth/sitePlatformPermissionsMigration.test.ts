import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { createDb, type Knex } from '../../src/db/knex';
import { createScratchDatabase, type ScratchDatabase } from '../../src/dev/scratchDatabase';
import type { Permission } from '../../src/auth/permissions';
import { up as grantSitePlatformPermissions } from '../../migrations/20261128200000_agent_keys_site_platform_permissions';
import { newAccount, newAgentKey } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { MIGRATION_OPTIONS, migrateUpTo } from '../helpers/migrations';
import { startSiteWorld, type SiteWorld } from '../sitePlatform/connections/fixtures';
import { OPS, newTenant, query } from '../sitePlatform/operations/fixtures';

const MIGRATION = '20261128200000_agent_keys_site_platform_permissions.ts';
const SITE_PLATFORM = ['site_platform:read', 'site_platform:write'];
// Every permission a key could hold before the site platform ones existed, and the smaller set before the projects ones.
const FOUNDATION = [
  'crm:read',
  'crm:write',
  'jobs:read',
  'jobs:write',
  'marketing.content:read',
  'marketing.content:create',
  'marketing.content:update',
  'marketing.reports:read',
];
const EVERY_BEFORE = [...FOUNDATION, 'projects:read', 'projects:write'];

describe('migration: existing keys holding every permission get the site platform permissions', function () {
  this.timeout(120_000);
  let scratch: ScratchDatabase;
  let db: Knex;
  const account = randomUUID();
  const keys = {
    every: randomUUID(),
    everyReadOnly: randomUUID(),
    everyBeforeProjects: randomUUID(),
    foundationOnlyLater: randomUUID(),
    crmOnly: randomUUID(),
  };
  const permissionsOf = async (id: string): Promise<string[]> => (await db('agent_keys').where({ id }).first()).permissions;

  before(async () => {
    scratch = await createScratchDatabase('workyard_migration');
    db = createDb(scratch.url, 2);
    await migrateUpTo(db, MIGRATION);
    await db('accounts').insert({ id: account, name: 'Keys' });
    const key = (id: string, permissions: string[], extra: Record<string, unknown> = {}) => ({
      id,
      account_id: account,
      name: id,
      permissions,
      secret_hash: 'x',
      token_hint: 'abcd',
      ...extra,
    });
    await db('agent_keys').insert([
      key(keys.every, EVERY_BEFORE),
      key(keys.everyReadOnly, EVERY_BEFORE, { read_only: true }),
      // Made with every permission before the projects permissions existed.
      key(keys.everyBeforeProjects, FOUNDATION, { created_at: new Date('2026-01-01T00:00:00Z') }),
      // Made later with those eight only: it was not given everything, so it gains nothing.
      key(keys.foundationOnlyLater, FOUNDATION),
      key(keys.crmOnly, ['crm:read']),
    ]);
    await db.migrate.up({ ...MIGRATION_OPTIONS, name: MIGRATION });
  });

  after(async () => {
    await db?.destroy();
    await scratch?.drop();
  });

  it('a key holding every permission, read-only or not, now holds site_platform:read and site_platform:write too', async () => {
    assert.deepEqual(await permissionsOf(keys.every), [...EVERY_BEFORE, ...SITE_PLATFORM]);
    assert.deepEqual(await permissionsOf(keys.everyReadOnly), [...EVERY_BEFORE, ...SITE_PLATFORM]);
    assert.equal((await db('agent_keys').where({ id: keys.everyReadOnly }).first()).read_only, true, 'the read-only rule stays');
  });

  it('a key made with every permission before the projects permissions existed gets them too', async () => {
    assert.deepEqual(await permissionsOf(keys.everyBeforeProjects), [...FOUNDATION, ...SITE_PLATFORM]);
  });

  it('a key holding only some permissions gains nothing: a key holds only what it is given', async () => {
    assert.deepEqual(await permissionsOf(keys.foundationOnlyLater), FOUNDATION);
    assert.deepEqual(await permissionsOf(keys.crmOnly), ['crm:read']);
  });

  it('down takes the two permissions away again, and up grants them once more without duplicates', async () => {
    await db.migrate.down({ ...MIGRATION_OPTIONS, name: MIGRATION });
    assert.deepEqual(await permissionsOf(keys.every), EVERY_BEFORE);
    await db.migrate.up({ ...MIGRATION_OPTIONS, name: MIGRATION });
    await grantSitePlatformPermissions(db);
    assert.deepEqual(await permissionsOf(keys.every), [...EVERY_BEFORE, ...SITE_PLATFORM]);
  });
});

describe('an all-permission agent key created before the site platform permissions existed', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world?.close();
  });

  it('still reads and writes through the operation route once the migration ran', async () => {
    const t = await newTenant(world);
    const legacy = await newAgentKey(t.account.accountId, EVERY_BEFORE as Permission[]);
    await grantSitePlatformPermissions(harness().db);
    const read = await world.app.call('GET', `${OPS}${query({ action: 'site_get', site_id: t.siteId })}`, { token: legacy });
    assert.equal(read.status, 200, read.text);
    const write = await world.app.call('POST', OPS, {
      token: legacy,
      body: {
        action: 'cms_item_update',
        site_id: t.siteId,
        collection_id: t.collectionId,
        item_id: t.itemIds[0],
        fieldData: { name: 'Still mine' },
      },
    });
    assert.equal(write.status, 200, write.text);
    const other = await newAccount();
    const crmOnly = await newAgentKey(other.accountId, ['crm:read']);
    await grantSitePlatformPermissions(harness().db);
    const refused = await world.app.call('GET', `${OPS}${query({ action: 'site_list' })}`, { token: crmOnly });
    assert.equal(refused.status, 403, refused.text);
  });
});
