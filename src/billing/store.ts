import type { Knex } from '../db/knex';

export const BILLING_STANDINGS = ['good', 'past_due', 'unpaid', 'suspended'] as const;
export type BillingStanding = (typeof BILLING_STANDINGS)[number];

export interface PlanRow {
  account_id: string;
  plan: string;
  image_allowance_monthly: number | null;
  billing_standing: BillingStanding;
  updated_at: Date;
}

export type UnitStatus = 'reserved' | 'consumed' | 'refunded';

export interface ImageUnitRow {
  id: string;
  account_id: string;
  period: string;
  unit_key: string;
  status: UnitStatus;
  reserved_at: Date;
  settled_at: Date | null;
}

export type PlanChanges = Partial<Pick<PlanRow, 'plan' | 'image_allowance_monthly' | 'billing_standing'>>;

export function findPlan(db: Knex, accountId: string): Promise<PlanRow | undefined> {
  return db<PlanRow>('account_plans').where({ account_id: accountId }).first();
}

/** Creates the account's row on first change (defaults for what is not given), else changes only what is given. */
export async function upsertPlan(db: Knex, accountId: string, changes: PlanChanges): Promise<PlanRow> {
  const [row] = await db('account_plans')
    .insert({ account_id: accountId, ...changes })
    .onConflict('account_id')
    .merge({ ...changes, updated_at: db.fn.now() })
    .returning('*');
  return row as PlanRow;
}

/**
 * Serialises reservations of one account for the rest of the transaction: a transaction-scoped advisory lock, since
 * the account may have no plan row to lock. Per account rather than per period because a unit key is unique per
 * account across periods.
 */
export async function lockImageAllowance(trx: Knex, accountId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`image_allowance:${accountId}`]);
}

export function findUnit(db: Knex, accountId: string, unitKey: string): Promise<ImageUnitRow | undefined> {
  return db<ImageUnitRow>('image_allowance_units').where({ account_id: accountId, unit_key: unitKey }).first();
}

/** Units of one period by status (statuses without units are 0). */
export async function periodUse(db: Knex, accountId: string, period: string): Promise<Record<UnitStatus, number>> {
  const rows = await db('image_allowance_units')
    .where({ account_id: accountId, period })
    .groupBy('status')
    .select('status')
    .count<{ status: UnitStatus; count: number }[]>('* as count');
  const use: Record<UnitStatus, number> = { reserved: 0, consumed: 0, refunded: 0 };
  for (const r of rows) use[r.status] = Number(r.count);
  return use;
}

export async function insertUnit(trx: Knex, accountId: string, period: string, unitKey: string, now: Date): Promise<ImageUnitRow> {
  const [row] = await trx('image_allowance_units')
    .insert({ account_id: accountId, period, unit_key: unitKey, status: 'reserved', reserved_at: now })
    .returning('*');
  return row as ImageUnitRow;
}

/** reserved → `to`; undefined when the unit is unknown or already settled (a settled unit never changes again). */
export async function settleUnit(
  db: Knex,
  accountId: string,
  unitKey: string,
  to: 'consumed' | 'refunded',
): Promise<ImageUnitRow | undefined> {
  const [row] = await db('image_allowance_units')
    .where({ account_id: accountId, unit_key: unitKey, status: 'reserved' })
    .update({ status: to, settled_at: db.fn.now() })
    .returning('*');
  return row as ImageUnitRow | undefined;
}
