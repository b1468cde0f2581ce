import type { Knex } from 'knex';

/**
 * Lead stats are per project, so a ledger row names the project it belongs to. A delivery names only its
 * site; the project is the account's oldest binding of that site that is not `disabled` (the fan-out's order), and a
 * backfill row the project it was run for. The composite key keeps the project within the row's account; deleting
 * the project clears only `project_id`, so the lead stays in the ledger.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table form_submissions add column project_id uuid`);
  await knex.raw(`alter table form_submissions
    add constraint form_submissions_project_fk foreign key (account_id, project_id)
    references projects (account_id, id) on delete set null (project_id)`);
  await knex.raw(`update form_submissions s set project_id = b.project_id
    from (select distinct on (account_id, site_id) account_id, site_id, project_id
            from site_platform_project_bindings
           where site_id is not null and override_mode <> 'disabled'
           order by account_id, site_id, created_at, id) b
   where s.project_id is null and b.account_id = s.account_id and b.site_id = s.raw_payload->>'site_id'`);
  // Serves the lead counts per (project, page path, time range); only rows that count are indexed.
  await knex.raw(`create index form_submissions_project_path on form_submissions (account_id, project_id, page_path, submitted_at)
    where project_id is not null and not spam and not duplicate and deleted_at is null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table form_submissions drop column if exists project_id`);
}
