import type { Knex } from 'knex';

/**
 * Fan-out: what the fan-out of an inbound event did — the projects it reached (at most 50), whether the
 * cap cut some off, the pages re-indexed — kept on the event row beside `fanned_out_at`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('site_platform_inbound_events', (t) => {
    t.jsonb('fan_out');
  });
  // Each row is written three times (recorded, dispatched, fanned out): free room on its page lets the later versions
  // stay there, and the fan-out stamp (no indexed column) be a HOT update that writes no index entry.
  await knex.raw('alter table site_platform_inbound_events set (fillfactor = 60)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table site_platform_inbound_events reset (fillfactor)');
  await knex.schema.alterTable('site_platform_inbound_events', (t) => {
    t.dropColumn('fan_out');
  });
}
