import type { Knex } from 'knex';

/**
 * The site platform operation routes and /mcp now ask an agent key for `site_platform:read` (reads) or
 * `site_platform:write` (writes). Keys made with every permission get both, so what they did before still works;
 * a key given only some permissions keeps exactly those.
 *
 * "Every permission" is what "all" meant when the key was made: the ten permissions before this one, or, for a key
 * made before the projects permissions existed (before their migration ran), the eight before those. A key already
 * holding either site platform permission was made knowing them and is left as it is, so running this again changes nothing.
 */
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
const PROJECTS = ['projects:read', 'projects:write'];
const PROJECTS_MIGRATION = '20261126100000_projects.ts';
const SITE_PLATFORM = ['site_platform:read', 'site_platform:write'];
/** A Postgres array literal, bound as one text value (knex would spread a JS array into a list). */
const textArray = (items: string[]) => `{${items.join(',')}}`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `update agent_keys
        set permissions = permissions || ?::text[]
      where permissions @> ?::text[]
        and not permissions && ?::text[]
        and (permissions @> ?::text[]
             or created_at < (select min(migration_time) from knex_migrations where name = ?))`,
    [textArray(SITE_PLATFORM), textArray(FOUNDATION), textArray(SITE_PLATFORM), textArray(PROJECTS), PROJECTS_MIGRATION],
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    `update agent_keys
        set permissions = array(select p from unnest(permissions) with ordinality u(p, n) where not p = any(?::text[]) order by n)
      where permissions && ?::text[]`,
    [textArray(SITE_PLATFORM), textArray(SITE_PLATFORM)],
  );
}
