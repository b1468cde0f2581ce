import type { Middleware } from 'koa';
import type pg from 'pg';
import type { Knex } from '../../src/db/knex';
import { contentPageQuery, contentPageWithTotalQuery, type ContentFilter } from '../../src/marketing/content/listStore';

const WINDOW = { limit: 25, offset: 0 };

function filterOf(query: Record<string, unknown>): ContentFilter {
  return {
    status: query.status as string | undefined,
    content_type: query.content_type as string | undefined,
    avatar_id: query.avatar_id as string | undefined,
    journey_stage: query.journey_stage as string | undefined,
  };
}

/**
 * Bare Koa handlers over raw pg, no auth, no validation, no mapping:
 * `/same` runs the statement our list runs (the page and its total in one SELECT);
 * `/page` runs only the page SELECT (no total), for context.
 */
export function contentListBaseline(db: Knex, pool: pg.Pool, accountId: string): Middleware {
  return async (ctx) => {
    const filter = filterOf(ctx.query);
    const statement =
      ctx.path === '/page'
        ? contentPageQuery(db, accountId, filter, 'updated', WINDOW).toSQL().toNative()
        : contentPageWithTotalQuery(db, accountId, filter, 'updated', WINDOW).toSQL().toNative();
    ctx.body = { data: (await pool.query(statement.sql, statement.bindings as unknown[])).rows };
  };
}
