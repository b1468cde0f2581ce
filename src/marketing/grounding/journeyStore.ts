import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';
import { whereNameContains } from './nameSearchStore';

export interface JourneyStage {
  name: string;
  description: string | null;
}

export interface JourneyRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  /** In journey order, as the client sent them. */
  stages: JourneyStage[];
  created_at: Date;
  updated_at: Date;
}

export type JourneyFields = Partial<Pick<JourneyRow, 'name' | 'description' | 'stages'>>;

const table = 'customer_journeys';

/** jsonb columns take JSON text: pg would send a JS array as a Postgres array. */
const toColumns = (f: JourneyFields) => ({ ...f, ...(f.stages !== undefined ? { stages: JSON.stringify(f.stages) } : {}) });

/** Newest first. */
export async function listJourneys(db: Knex, accountId: string, search: string | undefined, page: Page) {
  const filtered = () => whereNameContains(db(table).where('account_id', accountId), search);
  const [rows, [{ count }]] = await Promise.all([
    filtered()
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<JourneyRow[]>,
    filtered().count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
  ]);
  return { rows, total: Number(count) };
}

export async function findJourney(db: Knex, accountId: string, id: string): Promise<JourneyRow | undefined> {
  return db(table).where({ account_id: accountId, id }).first();
}

/** The journey's id, name and stages, locked against deletion for the caller's transaction (content references it). */
export async function lockJourneyRef(
  db: Knex,
  accountId: string,
  id: string,
): Promise<Pick<JourneyRow, 'id' | 'name' | 'stages'> | undefined> {
  return db(table).where({ account_id: accountId, id }).forKeyShare().first('id', 'name', 'stages');
}

export async function insertJourney(
  db: Knex,
  accountId: string,
  fields: JourneyFields & { name: string; stages: JourneyStage[] },
): Promise<JourneyRow> {
  const [row] = await db(table)
    .insert({ account_id: accountId, ...toColumns(fields) })
    .returning('*');
  return row;
}

export async function updateJourney(db: Knex, accountId: string, id: string, fields: JourneyFields): Promise<JourneyRow | undefined> {
  const [row] = await db(table)
    .where({ account_id: accountId, id })
    .update({ ...toColumns(fields), updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** True when a row was deleted. Content items that named it keep existing with `journey_id` null (FK on delete set null). */
export async function deleteJourney(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db(table).where({ account_id: accountId, id }).delete()) > 0;
}
