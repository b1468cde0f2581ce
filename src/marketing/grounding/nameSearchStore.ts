import type { Knex } from '../../db/knex';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Narrows a query to rows whose name contains `search`, ignoring case (`%` and `_` are literal). */
export function whereNameContains(q: Knex.QueryBuilder, search: string | undefined): Knex.QueryBuilder {
  if (search) q.whereRaw('lower(name) like ?', [`%${escapeLike(search.toLowerCase())}%`]);
  return q;
}
