import type { Middleware } from 'koa';
import type pg from 'pg';
import { contactPageQuery } from '../../src/crm/contactStore';
import type { Knex } from '../../src/db/knex';

/** One handler, one indexed SELECT (the same page query our store builds), raw pg, no auth, no count. */
export function crmSearchBaseline(db: Knex, pool: pg.Pool, accountId: string): Middleware {
  return async (ctx) => {
    const search = String(ctx.query.search ?? '');
    const { sql, bindings } = contactPageQuery(db, accountId, { search }, { page: 1, limit: 25 }).toSQL().toNative();
    ctx.body = { contacts: (await pool.query(sql, bindings as unknown[])).rows };
  };
}
