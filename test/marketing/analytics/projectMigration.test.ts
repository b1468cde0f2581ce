import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { createDb, type Knex } from '../../../src/db/knex';
import { createScratchDatabase, type ScratchDatabase } from '../../../src/dev/scratchDatabase';
import { MIGRATION_OPTIONS, migrateUpTo } from '../../helpers/migrations';

const MIGRATION = '20261127070100_form_submissions_project.ts';
describe('form submissions project migration: existing rows take the project bound to their site', function () {
  this.timeout(120_000);
  let scratch: ScratchDatabase;
  let db: Knex;
  const account = randomUUID();
  const stranger = randomUUID();
  const [oldest, newer, disabled, strangers] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];

  const row = (accountId: string, siteId: string | undefined, label: string) => ({
    account_id: accountId,
    source: 'platform',
    idempotency_key: `platform:${accountId}:${label}`,
    form_label: label,
    raw_payload: JSON.stringify(siteId ? { site_id: siteId } : {}),
    submitted_at: new Date('2026-11-01T00:00:00Z'),
  });

  before(async () => {
    scratch = await createScratchDatabase('workyard_migration');
    db = createDb(scratch.url, 2);
    await migrateUpTo(db, MIGRATION);
    await db('accounts').insert([
      { id: account, name: 'Acme' },
      { id: stranger, name: 'Other' },
    ]);
    await db('projects').insert([
      { id: oldest, account_id: account, name: 'Oldest', kind: 'platform_hosted' },
      { id: newer, account_id: account, name: 'Newer', kind: 'platform_hosted' },
      { id: disabled, account_id: account, name: 'Disabled', kind: 'platform_hosted' },
      { id: strangers, account_id: stranger, name: 'Theirs', kind: 'platform_hosted' },
    ]);
    const binding = (accountId: string, projectId: string, siteId: string, mode: string, at: string) => ({
      account_id: accountId,
      project_id: projectId,
      site_id: siteId,
      override_mode: mode,
      created_at: new Date(at),
    });
    await db('site_platform_project_bindings').insert([
      binding(account, disabled, 'site-a', 'disabled', '2026-01-01T00:00:00Z'),
      binding(account, oldest, 'site-a', 'inherit', '2026-02-01T00:00:00Z'),
      binding(account, newer, 'site-a', 'override', '2026-03-01T00:00:00Z'),
      binding(stranger, strangers, 'site-b', 'inherit', '2026-01-01T00:00:00Z'),
    ]);
    await db('form_submissions').insert([row(account, 'site-a', 'a'), row(account, 'site-b', 'b'), row(account, undefined, 'none')]);
    await db.migrate.up({ ...MIGRATION_OPTIONS, name: MIGRATION });
  });

  after(async () => {
    await db?.destroy();
    await scratch?.drop();
  });

  const projectOf = async (label: string) =>
    (await db('form_submissions').where({ account_id: account, form_label: label }).first()).project_id;

  it("a row of a bound site takes the account's oldest non-disabled binding", async () => {
    assert.equal(await projectOf('a'), oldest);
  });

  it("another account's binding of the same site name is never used; a row without a site keeps no project", async () => {
    assert.deepEqual([await projectOf('b'), await projectOf('none')], [null, null]);
  });

  it("a row cannot name another account's project", async () => {
    await assert.rejects(
      db('form_submissions').where({ account_id: account, form_label: 'b' }).update({ project_id: strangers }),
      /violates foreign key constraint/,
    );
  });

  it('down drops the column, and up applies again', async () => {
    await db.migrate.down({ ...MIGRATION_OPTIONS, name: MIGRATION });
    assert.equal(await db.schema.hasColumn('form_submissions', 'project_id'), false);
    await db.migrate.up({ ...MIGRATION_OPTIONS, name: MIGRATION });
    assert.equal(await projectOf('a'), oldest);
  });
});
