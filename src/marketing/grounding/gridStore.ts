import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';
import { whereNameContains } from './nameSearchStore';

export interface GridRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ResultRow {
  id: string;
  grid_id: string;
  position: number;
  metric: string;
  /** numeric(20,4) arrives as text; the service turns it into a number. */
  before_value: string;
  after_value: string;
  unit: string | null;
}

export interface TestimonialRow {
  id: string;
  grid_id: string;
  position: number;
  quote: string;
  attribution: string | null;
  consent: boolean;
}

export type GridFields = Partial<Pick<GridRow, 'name' | 'description'>>;
export type NewResult = { id?: string; metric: string; before: number; after: number; unit: string | null };
export type NewTestimonial = { id?: string; quote: string; attribution: string | null; consent: boolean };

const grids = 'before_after_grids';
const results = 'before_after_results';
const testimonials = 'before_after_testimonials';

/** Newest first. */
export async function listGrids(db: Knex, accountId: string, search: string | undefined, page: Page) {
  const filtered = () => whereNameContains(db(grids).where('account_id', accountId), search);
  const [rows, [{ count }]] = await Promise.all([
    filtered()
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<GridRow[]>,
    filtered().count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
  ]);
  return { rows, total: Number(count) };
}

export async function findGrid(db: Knex, accountId: string, id: string): Promise<GridRow | undefined> {
  return db(grids).where({ account_id: accountId, id }).first();
}

/** The grid, locked for an update of it and its rows. */
export async function lockGrid(db: Knex, accountId: string, id: string): Promise<GridRow | undefined> {
  return db(grids).where({ account_id: accountId, id }).forUpdate().first();
}

/** The grid's id and name, locked against deletion for the caller's transaction (content references it). */
export async function lockGridRef(db: Knex, accountId: string, id: string): Promise<{ id: string; name: string } | undefined> {
  return db(grids).where({ account_id: accountId, id }).forKeyShare().first('id', 'name');
}

/** Rows of the given grids, each list in position order. */
export async function rowsOf(db: Knex, accountId: string, gridIds: string[]) {
  if (gridIds.length === 0) return { results: [] as ResultRow[], testimonials: [] as TestimonialRow[] };
  const [r, t] = await Promise.all([
    db(results).where('account_id', accountId).whereIn('grid_id', gridIds).orderBy(['grid_id', 'position']) as Promise<ResultRow[]>,
    db(testimonials).where('account_id', accountId).whereIn('grid_id', gridIds).orderBy(['grid_id', 'position']) as Promise<
      TestimonialRow[]
    >,
  ]);
  return { results: r, testimonials: t };
}

export async function resultIds(db: Knex, accountId: string, gridId: string): Promise<string[]> {
  return db(results).where({ account_id: accountId, grid_id: gridId }).pluck('id');
}

export async function testimonialIds(db: Knex, accountId: string, gridId: string): Promise<string[]> {
  return db(testimonials).where({ account_id: accountId, grid_id: gridId }).pluck('id');
}

export async function insertGrid(db: Knex, accountId: string, fields: GridFields & { name: string }): Promise<GridRow> {
  const [row] = await db(grids)
    .insert({ account_id: accountId, ...fields })
    .returning('*');
  return row;
}

/** Updates the grid's own columns and stamps `updated_at` (also when only its rows changed). */
export async function touchGrid(db: Knex, accountId: string, id: string, fields: GridFields): Promise<GridRow> {
  const [row] = await db(grids)
    .where({ account_id: accountId, id })
    .update({ ...fields, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Replaces the grid's results with `rows` in order; a row with an `id` keeps it (the caller checked it is this grid's). */
export async function replaceResults(db: Knex, accountId: string, gridId: string, rows: NewResult[]): Promise<void> {
  await db(results).where({ account_id: accountId, grid_id: gridId }).delete();
  if (rows.length === 0) return;
  await db(results).insert(
    rows.map((r, i) => ({
      ...(r.id ? { id: r.id } : {}),
      account_id: accountId,
      grid_id: gridId,
      position: i + 1,
      metric: r.metric,
      before_value: r.before,
      after_value: r.after,
      unit: r.unit,
    })),
  );
}

/** Replaces the grid's testimonials with `rows` in order; a row with an `id` keeps it. */
export async function replaceTestimonials(db: Knex, accountId: string, gridId: string, rows: NewTestimonial[]): Promise<void> {
  await db(testimonials).where({ account_id: accountId, grid_id: gridId }).delete();
  if (rows.length === 0) return;
  await db(testimonials).insert(
    rows.map((t, i) => ({
      ...(t.id ? { id: t.id } : {}),
      account_id: accountId,
      grid_id: gridId,
      position: i + 1,
      quote: t.quote,
      attribution: t.attribution,
      consent: t.consent,
    })),
  );
}

/** True when a row was deleted (its rows go with it). Content items that named it keep existing with `before_after_grid_id` null. */
export async function deleteGrid(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db(grids).where({ account_id: accountId, id }).delete()) > 0;
}
