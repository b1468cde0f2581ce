import type { Knex } from 'knex';

/**
 * Every project id already in use becomes a row of `projects`, and the tables that hang off a
 * project reference it by foreign key, unique per project.
 *
 * Until now each account kept its own rows per project id, so one id may appear under several accounts. The account
 * with the oldest row keeps the id; every other account's rows move to a fresh id of its own (one per account), in
 * every place that names it (bindings, content sources, commerce settings, project-override connections and content
 * items' cms_link), so they keep working. The content source (native or platform CMS) moves from the site platform's
 * per-project row into `projects.content_source`; that row keeps only the site and the revert bookkeeping.
 */

const OWNED = ['site_platform_project_bindings', 'site_platform_content_sources', 'project_commerce_settings'] as const;

interface Use { account_id: string; project_id: string; first_at: Date }

/** Each (account, project id) in use, with its first use (bindings and settings by creation, content sources by update). */
const USES = `
  select account_id, project_id, min(at) as first_at from (
    select account_id, project_id, created_at as at from site_platform_project_bindings
    union all select account_id, project_id, updated_at from site_platform_content_sources
    union all select account_id, project_id, created_at from project_commerce_settings
    union all select account_id, project_id, created_at from site_platform_connections where project_id is not null
  ) x group by account_id, project_id`;

async function projectUses(knex: Knex): Promise<Use[]> {
  return (await knex.raw(`${USES} order by project_id, first_at, account_id`)).rows;
}

/** Moves one account's rows of a project id to a new id. */
async function rekey(knex: Knex, accountId: string, from: string, to: string): Promise<void> {
  for (const table of [...OWNED, 'site_platform_connections']) {
    await knex(table).where({ account_id: accountId, project_id: from }).update({ project_id: to });
  }
  await knex.raw(
    `update content_items set cms_link = jsonb_set(cms_link, '{project_id}', to_jsonb(?::text))
      where account_id = ? and cms_link->>'project_id' = ?`,
    [to, accountId, from],
  );
}

export async function up(knex: Knex): Promise<void> {
  const uses = await projectUses(knex);
  const keeper = new Map<string, string>();
  for (const use of uses) {
    // Ordered by project id then first use: the first account seen for an id keeps it.
    if (!keeper.has(use.project_id)) keeper.set(use.project_id, use.account_id);
    else {
      const [{ id }] = (await knex.raw('select gen_random_uuid() as id')).rows;
      await rekey(knex, use.account_id, use.project_id, id);
    }
  }

  await knex.raw(`
    insert into projects (id, account_id, name, kind, content_source, created_at, updated_at)
    select u.project_id, u.account_id, 'Project ' || left(u.project_id::text, 8),
      case when exists (select 1 from site_platform_project_bindings b where b.account_id = u.account_id and b.project_id = u.project_id)
             or exists (select 1 from site_platform_connections c where c.account_id = u.account_id and c.project_id = u.project_id)
             or cs.provider = 'site_platform'
           then 'platform_hosted' else 'service_hosted' end,
      coalesce(cs.provider, 'native'), u.first_at, u.first_at
    from (
      ${USES}
    ) u
    left join site_platform_content_sources cs on cs.account_id = u.account_id and cs.project_id = u.project_id
    on conflict (id) do nothing`);

  // Unique per project. The (account_id, project_id) keys stay: they index the foreign key and remain the upserts'
  // conflict targets, and with project_id unique they can no longer let two accounts share an id.
  for (const table of OWNED) {
    await knex.schema.alterTable(table, (t) => {
      t.unique(['project_id'], { indexName: `${table}_project_unique` });
      t.foreign(['account_id', 'project_id'], `${table}_project_fk`).references(['account_id', 'id']).inTable('projects').onDelete('CASCADE');
    });
  }
  await knex.schema.alterTable('site_platform_content_sources', (t) => t.dropColumn('provider'));
}

/**
 * Back to a per-row content source, without the foreign keys and per-project uniques. Project rows stay (the projects migration drops its table)
 * and re-keyed ids keep their new value: nothing in the old shape depended on the old one.
 */
export async function down(knex: Knex): Promise<void> {
  for (const table of OWNED) {
    await knex.schema.alterTable(table, (t) => {
      t.dropForeign(['account_id', 'project_id'], `${table}_project_fk`);
      t.dropUnique(['project_id'], `${table}_project_unique`);
    });
  }
  await knex.schema.alterTable('site_platform_content_sources', (t) => t.text('provider').notNullable().defaultTo('native'));
  await knex.raw(`
    insert into site_platform_content_sources (project_id, account_id, provider)
    select id, account_id, 'site_platform' from projects p where p.content_source = 'site_platform'
    on conflict (account_id, project_id) do nothing`);
  await knex.raw(`
    update site_platform_content_sources cs set provider = p.content_source
    from projects p where p.account_id = cs.account_id and p.id = cs.project_id`);
  await knex.raw(`alter table site_platform_content_sources alter column provider drop default,
    add constraint site_platform_content_sources_provider check (provider in ('native', 'site_platform'))`);
}
