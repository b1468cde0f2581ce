import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { createDb, type Knex } from '../../src/db/knex';
import { createScratchDatabase, type ScratchDatabase } from '../../src/dev/scratchDatabase';
import { MIGRATION_OPTIONS, migrateUpTo } from '../helpers/migrations';
import { findOwnProject } from '../../src/projects/service';

const BACKFILL = '20261126100100_projects_backfill.ts';
describe('projects backfill migration', function () {
  this.timeout(120_000);
  let scratch: ScratchDatabase;
  let db: Knex;
  const older = randomUUID();
  const newer = randomUUID();
  const shared = randomUUID();
  const settingsOnly = randomUUID();

  before(async () => {
    scratch = await createScratchDatabase('workyard_migration');
    db = createDb(scratch.url, 2);
    await migrateUpTo(db, BACKFILL);
    await db('accounts').insert([
      { id: older, name: 'Older' },
      { id: newer, name: 'Newer' },
    ]);
    // Old shape: both accounts used `shared`; the older account first.
    await db('site_platform_project_bindings').insert({
      account_id: older,
      project_id: shared,
      override_mode: 'inherit',
      site_id: 'site-a',
      created_at: new Date('2026-01-01T00:00:00Z'),
    });
    await db('site_platform_project_bindings').insert({
      account_id: newer,
      project_id: shared,
      override_mode: 'disabled',
      site_id: 'site-b',
      created_at: new Date('2026-02-01T00:00:00Z'),
    });
    await db('site_platform_content_sources').insert({
      account_id: newer,
      project_id: shared,
      provider: 'site_platform',
      site_id: 'site-b',
      updated_at: new Date('2026-02-02T00:00:00Z'),
    });
    await db('project_commerce_settings').insert({ account_id: older, project_id: settingsOnly, override_mode: 'disabled' });
    await db('content_items').insert({
      account_id: newer,
      title: 'Linked',
      cms_link: JSON.stringify({ project_id: shared, collection_id: 'c1', item_id: null }),
    });
    await db.migrate.up({ ...MIGRATION_OPTIONS, name: BACKFILL });
  });

  after(async () => {
    await db?.destroy();
    await scratch?.drop();
  });

  it('the account with the oldest row keeps a shared project id, with its binding', async () => {
    const project = await findOwnProject(db, older, shared);
    assert.ok(project);
    assert.equal(project.name, `Project ${shared.slice(0, 8)}`);
    assert.equal(project.kind, 'platform_hosted');
    assert.equal(project.content_source, 'native');
    const binding = await db('site_platform_project_bindings').where({ account_id: older, project_id: shared }).first();
    assert.equal(binding.site_id, 'site-a');
  });

  it('another account that used the same id gets a fresh id carrying its binding, content source and cms_link', async () => {
    assert.equal(await findOwnProject(db, newer, shared), undefined);
    const projects = await db('projects').where({ account_id: newer });
    assert.equal(projects.length, 1);
    const moved = projects[0];
    assert.notEqual(moved.id, shared);
    assert.equal(moved.kind, 'platform_hosted');
    assert.equal(moved.content_source, 'site_platform');
    const binding = await db('site_platform_project_bindings').where({ account_id: newer, project_id: moved.id }).first();
    assert.equal(binding.override_mode, 'disabled');
    const source = await db('site_platform_content_sources').where({ account_id: newer, project_id: moved.id }).first();
    assert.equal(source.site_id, 'site-b');
    assert.equal('provider' in source, false);
    const item = await db('content_items').where({ account_id: newer }).first();
    assert.equal(item.cms_link.project_id, moved.id);
  });

  it('a project id used only by commerce settings becomes a service-hosted project', async () => {
    const project = await findOwnProject(db, older, settingsOnly);
    assert.equal(project?.kind, 'service_hosted');
  });

  it('a project id can no longer be bound by a second account', async () => {
    await assert.rejects(
      db('site_platform_project_bindings').insert({ account_id: newer, project_id: shared, override_mode: 'inherit' }),
      /violates (foreign key|unique) constraint/,
    );
  });

  it('deleting a project deletes its rows by cascade', async () => {
    await db('projects').where({ account_id: older, id: settingsOnly }).del();
    assert.equal((await db('project_commerce_settings').where({ project_id: settingsOnly })).length, 0);
  });

  it('down restores the per-row content source, and up applies again', async () => {
    await db.migrate.down({ ...MIGRATION_OPTIONS, name: BACKFILL });
    const moved = await db('projects').where({ account_id: newer }).first();
    const source = await db('site_platform_content_sources').where({ account_id: newer, project_id: moved.id }).first();
    assert.equal(source.provider, 'site_platform');
    await db.migrate.up({ ...MIGRATION_OPTIONS, name: BACKFILL });
    assert.equal((await findOwnProject(db, newer, moved.id))?.content_source, 'site_platform');
  });
});
