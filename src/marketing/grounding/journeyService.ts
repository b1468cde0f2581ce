import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import { journeyNotFound } from './errors';
import type { ListQuery } from './listing';
import * as store from './journeyStore';
import type { JourneyFields, JourneyRow, JourneyStage } from './journeyStore';

export type { JourneyRow, JourneyStage };

/** A journey map keeps 1 to this many stages. */
export const MAX_STAGES = 20;

export async function listJourneys(db: Knex, accountId: string, { search, page, limit }: ListQuery) {
  return store.listJourneys(db, accountId, search, { page, limit });
}

/** The journey, or undefined when the id is malformed, missing or another account's. */
export async function findJourney(db: Knex, accountId: string, id: string): Promise<JourneyRow | undefined> {
  return isUuid(id) ? store.findJourney(db, accountId, id) : undefined;
}

/** The journey with its ordered stages; 404 `journey_not_found` when the id is malformed, missing or another account's. */
export async function getJourney(db: Knex, accountId: string, id: string): Promise<JourneyRow> {
  const row = await findJourney(db, accountId, id);
  if (!row) throw journeyNotFound();
  return row;
}

/** `{ id, name, stages }` of a journey a write references, locked for the caller's transaction; undefined when not in the account. */
export async function journeyRef(db: Knex, accountId: string, id: string) {
  return isUuid(id) ? store.lockJourneyRef(db, accountId, id) : undefined;
}

/** The stage of `journey` named `name`, compared case-insensitively; its `name` is the map's own spelling. */
export function stageNamed(journey: Pick<JourneyRow, 'stages'>, name: string): JourneyStage | undefined {
  const wanted = name.trim().toLowerCase();
  return journey.stages.find((s) => s.name.toLowerCase() === wanted);
}

export async function createJourney(
  db: Knex,
  accountId: string,
  fields: JourneyFields & { name: string; stages: JourneyStage[] },
): Promise<JourneyRow> {
  return store.insertJourney(db, accountId, fields);
}

/** Partial update: absent fields stay; `stages`, when sent, replaces the list (its order is the new journey order). */
export async function updateJourney(db: Knex, accountId: string, id: string, fields: JourneyFields): Promise<JourneyRow> {
  if (Object.keys(fields).length === 0) return getJourney(db, accountId, id);
  const row = isUuid(id) ? await store.updateJourney(db, accountId, id, fields) : undefined;
  if (!row) throw journeyNotFound();
  return row;
}

export async function deleteJourney(db: Knex, accountId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await store.deleteJourney(db, accountId, id))) throw journeyNotFound();
}
