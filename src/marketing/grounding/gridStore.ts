import type { Knex } from '../../db/knex';
import { groundingStore, type GroundingRow } from './groundingStore';

export type GridRow = GroundingRow;

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

const gridStore = groundingStore<GridRow, GridFields>({ table: grids, refColumns: ['id', 'name'] });

// A deleted grid takes its rows with it; content items that named it keep existing with `before_after_grid_id` null.
export const { list: listGrids, find: findGrid, lockRef: lockGridRef, insert: insertGrid, delete: deleteGrid } = gridStore;

/** The grid, locked for an update of it and its rows. */
export async function lockGrid(db: Knex, accountId: string, id: string): Promise<GridRow | undefined> {
  return db(grids).where({ account_id: accountId, id }).forUpdate().first();
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

/** Updates the grid's own columns and stamps `updated_at` (also when only its rows changed); the caller holds the grid's lock. */
export async function touchGrid(db: Knex, accountId: string, id: string, fields: GridFields): Promise<GridRow> {
  return (await gridStore.update(db, accountId, id, fields)) as GridRow;
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
