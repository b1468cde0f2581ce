import type { Knex } from '../../db/knex';
import { categoryRef } from '../categories/service';
import { avatarRef, gridRef, journeyRef } from '../grounding/service';
import { invalidReference } from './errors';

type RefLookup = (db: Knex, accountId: string, id: string) => Promise<unknown>;

/**
 * Body fields that name another record of the account, the owning area's lookup (which also locks the row against
 * deletion until the write commits, so a reference checked here cannot vanish before the insert), and how to name it.
 */
const REFERENCES: ReadonlyArray<{ field: ReferenceField; lookup: RefLookup; what: string }> = [
  { field: 'avatar_id', lookup: avatarRef, what: 'customer avatar' },
  { field: 'journey_id', lookup: journeyRef, what: 'customer journey map' },
  { field: 'before_after_grid_id', lookup: gridRef, what: 'before/after grid' },
  { field: 'category_id', lookup: categoryRef, what: 'marketing category' },
];

export type ReferenceField = 'avatar_id' | 'journey_id' | 'before_after_grid_id' | 'category_id';

/**
 * Every id the body sets must name a record of the account; checked before anything is written, so a bad id
 * leaves the item (and its versions) exactly as they were. Another account's id answers like an unknown one.
 */
export async function assertReferencesOwned(
  trx: Knex.Transaction,
  accountId: string,
  input: Partial<Record<ReferenceField, string | null>>,
): Promise<void> {
  for (const { field, lookup, what } of REFERENCES) {
    const id = input[field];
    if (id === undefined || id === null) continue;
    if (!(await lookup(trx, accountId, id))) throw invalidReference(field, what);
  }
}
