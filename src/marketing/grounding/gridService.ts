import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import { gridNotFound, invalidRowReference } from './errors';
import type { ListQuery } from './listing';
import * as store from './gridStore';
import type { GridFields, GridRow, NewResult, NewTestimonial, ResultRow, TestimonialRow } from './gridStore';

/** A measurable result: `metric` went from `before` to `after` (in `unit`). Case studies take their numbers from here. */
export interface GridResult {
  id: string;
  metric: string;
  before: number;
  after: number;
  unit: string | null;
}

/** A customer's words; `consent` true means it may be quoted verbatim with attribution (doc1 proof-pack rules). */
export interface GridTestimonial {
  id: string;
  quote: string;
  attribution: string | null;
  consent: boolean;
}

export interface Grid extends GridRow {
  results: GridResult[];
  testimonials: GridTestimonial[];
}

export interface GridInput extends GridFields {
  results?: NewResult[];
  testimonials?: NewTestimonial[];
}

const toResult = (r: ResultRow): GridResult => ({
  id: r.id,
  metric: r.metric,
  before: Number(r.before_value),
  after: Number(r.after_value),
  unit: r.unit,
});
const toTestimonial = (t: TestimonialRow): GridTestimonial => ({
  id: t.id,
  quote: t.quote,
  attribution: t.attribution,
  consent: t.consent,
});

/** Grids with their rows, in the order of `rows`. */
async function withRows(db: Knex, accountId: string, rows: GridRow[]): Promise<Grid[]> {
  const { results, testimonials } = await store.rowsOf(
    db,
    accountId,
    rows.map((g) => g.id),
  );
  return rows.map((g) => ({
    ...g,
    results: results.filter((r) => r.grid_id === g.id).map(toResult),
    testimonials: testimonials.filter((t) => t.grid_id === g.id).map(toTestimonial),
  }));
}

export async function listGrids(db: Knex, accountId: string, { search, page, limit }: ListQuery) {
  const { rows, total } = await store.listGrids(db, accountId, search, { page, limit });
  return { rows: await withRows(db, accountId, rows), total };
}

/** The grid with its rows, or undefined when the id is malformed, missing or another account's. */
export async function findGrid(db: Knex, accountId: string, id: string): Promise<Grid | undefined> {
  const row = isUuid(id) ? await store.findGrid(db, accountId, id) : undefined;
  return row ? (await withRows(db, accountId, [row]))[0] : undefined;
}

/** The grid with its measurable results and testimonials in order; 404 `grid_not_found` when not in the account. */
export async function getGrid(db: Knex, accountId: string, id: string): Promise<Grid> {
  const grid = await findGrid(db, accountId, id);
  if (!grid) throw gridNotFound();
  return grid;
}

/** `{ id, name }` of a grid a write references, locked for the caller's transaction; undefined when not in the account. */
export async function gridRef(db: Knex, accountId: string, id: string) {
  return isUuid(id) ? store.lockGridRef(db, accountId, id) : undefined;
}

export async function createGrid(db: Knex, accountId: string, input: GridInput & { name: string }): Promise<Grid> {
  const { results = [], testimonials = [], ...fields } = input;
  return db.transaction(async (trx) => {
    const grid = await store.insertGrid(trx, accountId, fields);
    await store.replaceResults(trx, accountId, grid.id, results);
    await store.replaceTestimonials(trx, accountId, grid.id, testimonials);
    return (await withRows(trx, accountId, [grid]))[0];
  });
}

/** Every `id` sent in `rows` must already be a row of this grid; otherwise 400 invalid_reference naming it. */
function checkRowIds(rows: Array<{ id?: string }>, existing: string[], field: string, what: string): void {
  const known = new Set(existing);
  rows.forEach((row, i) => {
    if (row.id !== undefined && !known.has(row.id)) throw invalidRowReference(`${field}.${i}.id`, what);
  });
}

/**
 * Partial update. `results` and `testimonials`, when sent, replace the grid's list in the order sent: a row sent
 * with the `id` of one of the grid's rows keeps that id (so citations of it stay valid), a row without `id` is new,
 * and rows not sent are removed. An absent list is left alone.
 */
export async function updateGrid(db: Knex, accountId: string, id: string, input: GridInput): Promise<Grid> {
  if (!isUuid(id)) throw gridNotFound();
  const { results, testimonials, ...fields } = input;
  return db.transaction(async (trx) => {
    const current = await store.lockGrid(trx, accountId, id);
    if (!current) throw gridNotFound();
    if (Object.keys(input).length === 0) return (await withRows(trx, accountId, [current]))[0];
    if (results) checkRowIds(results, await store.resultIds(trx, accountId, id), 'results', 'result row');
    if (testimonials) checkRowIds(testimonials, await store.testimonialIds(trx, accountId, id), 'testimonials', 'testimonial row');
    if (results) await store.replaceResults(trx, accountId, id, results);
    if (testimonials) await store.replaceTestimonials(trx, accountId, id, testimonials);
    const grid = await store.touchGrid(trx, accountId, id, fields);
    return (await withRows(trx, accountId, [grid]))[0];
  });
}

export async function deleteGrid(db: Knex, accountId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await store.deleteGrid(db, accountId, id))) throw gridNotFound();
}
