import type { Knex } from 'knex';

/**
 * A content item's `cms_link` names a project of its account. The link lives in jsonb, so a stored generated column
 * lifts the project id out of it and carries a foreign key: a project cannot be deleted while an item links to it
 * (the delete fails atomically, no check-then-delete race), and no item can link to another account's project.
 * NO ACTION, not RESTRICT: deleting an account cascades to both tables in one statement, checked at its end.
 */
// Links written before cms_link was checked may name no uuid at all: they name no project and carry no key.
const UUID_PATTERN = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;

export async function up(knex: Knex): Promise<void> {
  // Links to a project the account does not own (one it linked before projects were a resource and never bound,
  // or one re-keyed away from it) get a project of their own, so every link keeps working.
  const orphans: { account_id: string; project_id: string }[] = (await knex.raw(`
    select distinct c.account_id, c.cms_link->>'project_id' as project_id
      from content_items c
     where c.cms_link->>'project_id' ~ ${UUID_PATTERN}
       and not exists (select 1 from projects p where p.account_id = c.account_id and p.id::text = c.cms_link->>'project_id')`)).rows;
  for (const { account_id, project_id } of orphans) {
    const taken = await knex('projects').where({ id: project_id }).first();
    const [created] = await knex('projects')
      .insert({ ...(taken ? {} : { id: project_id }), account_id, name: `Project ${project_id.slice(0, 8)}`, kind: 'service_hosted' })
      .returning('id');
    if (taken) {
      await knex.raw(
        `update content_items set cms_link = jsonb_set(cms_link, '{project_id}', to_jsonb(?::text))
          where account_id = ? and cms_link->>'project_id' = ?`,
        [created.id, account_id, project_id],
      );
    }
  }
  await knex.raw(`alter table content_items
    add column cms_project_id uuid generated always as (
      case when cms_link->>'project_id' ~ ${UUID_PATTERN} then (cms_link->>'project_id')::uuid end) stored`);
  await knex.raw(`alter table content_items
    add constraint content_items_cms_project_fk foreign key (account_id, cms_project_id) references projects (account_id, id)`);
  await knex.raw(`create index content_items_cms_project on content_items (account_id, cms_project_id) where cms_project_id is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table content_items drop column if exists cms_project_id`);
}
