import type { Middleware } from 'koa';
import type pg from 'pg';
import { contactPageQuery, filteredPageWithTotalQuery } from '../../src/crm/contactStore';
import type { Knex } from '../../src/db/knex';

/** Path of the fair baseline on the baseline server; `/` is the page-only one. */
export const FAIR_BASELINE_PATH = '/total';

/**
 * Two bare handlers on one server, raw pg, no auth, no validation, no logging:
 * - `/`: one indexed SELECT of the page (the same page query our store builds), no count (context).
 * - `/total`: the page AND the exact total the spec requires for a search, as our store runs them for `search`
 *   (one statement: the matching rows read once, counted, the page cut from them — `filteredPageWithTotalQuery`).
 */
export function crmSearchBaseline(db: Knex, pool: pg.Pool, accountId: string): Middleware {
  return async (ctx) => {
    const search = String(ctx.query.search ?? '');
    const page = { page: 1, limit: 25 };
    if (ctx.path !== FAIR_BASELINE_PATH) {
      const { sql, bindings } = contactPageQuery(db, accountId, { search }, page).toSQL().toNative();
      ctx.body = { contacts: (await pool.query(sql, bindings as unknown[])).rows };
      return;
    }
    const { sql, bindings } = filteredPageWithTotalQuery(db, accountId, { search }, page).toSQL().toNative();
    const rows = (await pool.query(sql, bindings as unknown[])).rows as Array<{ id: string | null; total: string }>;
    ctx.body = {
      contacts: rows.filter((r) => r.id !== null).map(({ total: _total, ...row }) => row),
      total: rows.length ? Number(rows[0].total) : 0,
    };
  };
}
