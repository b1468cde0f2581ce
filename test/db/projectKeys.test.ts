import assert from 'node:assert/strict';
import { harness } from '../helpers/harness';

/** Unique keys of a table as their column lists, leaving out a primary key on a generated row id. */
async function uniqueKeys(table: string): Promise<string[]> {
  const { rows } = await harness().db.raw(
    `select string_agg(a.attname, ', ' order by k.ord) as columns
     from pg_index i
     join lateral unnest(i.indkey) with ordinality as k(attnum, ord) on true
     join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
     where i.indrelid = ?::regclass and i.indisunique
     group by i.indexrelid`,
    [table],
  );
  return (rows as Array<{ columns: string }>).map((r) => r.columns).filter((columns) => columns !== 'id');
}

describe('keys of the tables held per project', () => {
  it('each per-project table has one unique key, project_id, the arbiter of its upsert: racing first writes never meet a second key', async () => {
    for (const table of ['project_commerce_settings', 'site_platform_project_bindings', 'site_platform_content_sources']) {
      assert.deepEqual(await uniqueKeys(table), ['project_id'], table);
    }
  });
});
