import type { Knex } from 'knex';

/**
 * Content analytics: the project's site id in the web-analytics collector (the Plausible `site_id`, its
 * domain as registered there). Null until set: such a project has no collector figures, only forms-ledger ones.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.text('analytics_site_id');
    t.check('char_length(analytics_site_id) between 1 and 255', [], 'projects_analytics_site_id_length');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropChecks('projects_analytics_site_id_length');
    t.dropColumn('analytics_site_id');
  });
}
