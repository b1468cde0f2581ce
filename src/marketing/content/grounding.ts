import type { Knex } from '../../db/knex';
import { invalidReference } from './errors';
import { countOwned } from './store';

/** Body fields that name another record of the account, the table it must be in, and how to name it in errors. */
const REFERENCES = [
  { field: 'avatar_id', table: 'customer_avatars', what: 'customer avatar' },
  { field: 'journey_id', table: 'customer_journeys', what: 'customer journey map' },
  { field: 'before_after_grid_id', table: 'before_after_grids', what: 'before/after grid' },
  { field: 'category_id', table: 'marketing_categories', what: 'marketing category' },
] as const;

export type ReferenceField = (typeof REFERENCES)[number]['field'];

/**
 * Every id the body sets must name a record of the account; checked before anything is written, so a bad id
 * leaves the item (and its versions) exactly as they were. Another account's id answers like an unknown one.
 */
export async function assertReferencesOwned(
  db: Knex | Knex.Transaction,
  accountId: string,
  input: Partial<Record<ReferenceField, string | null>>,
): Promise<void> {
  for (const { field, table, what } of REFERENCES) {
    const id = input[field];
    if (id === undefined || id === null) continue;
    if ((await countOwned(db, accountId, table, id)) === 0) throw invalidReference(field, what);
  }
}
