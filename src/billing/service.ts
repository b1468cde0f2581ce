import type { Knex } from '../db/knex';
import { badBillingStanding, quotaExhausted } from './errors';
import * as store from './store';
import type { BillingStanding, ImageUnitRow, PlanChanges, UnitStatus } from './store';

export { BILLING_STANDINGS, type BillingStanding, type UnitStatus } from './store';

/**
 * The account's plan, billing standing and monthly image allowance. No payment integration: an operator
 * sets the plan (`npm run cli -- account plan`), members read it, and the image run reserves one unit per image.
 */
export interface AccountPlan {
  plan: string;
  /** null = unlimited. */
  image_allowance_monthly: number | null;
  billing_standing: BillingStanding;
}

/** An account without a row has the default plan: unlimited images, good standing. */
export const DEFAULT_PLAN: AccountPlan = { plan: 'standard', image_allowance_monthly: null, billing_standing: 'good' };

const planOf = (row: store.PlanRow | undefined): AccountPlan =>
  row ? { plan: row.plan, image_allowance_monthly: row.image_allowance_monthly, billing_standing: row.billing_standing } : DEFAULT_PLAN;

export async function readPlan(db: Knex, accountId: string): Promise<AccountPlan> {
  return planOf(await store.findPlan(db, accountId));
}

/** Changes only the given fields; the first change creates the row from the defaults. */
export async function setPlan(db: Knex, accountId: string, changes: PlanChanges): Promise<AccountPlan> {
  if (Object.keys(changes).length === 0) return readPlan(db, accountId);
  return planOf(await store.upsertPlan(db, accountId, changes));
}

/** The allowance period of an instant: its UTC month, `YYYY-MM`. */
export function imagePeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** First instant of the UTC month after `now`'s: when the next period starts. */
export function periodResetsAt(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export interface ImageUsage {
  period: string;
  allowance: number | null;
  /** Units consumed (rendered images) this period. */
  used: number;
  /** Units reserved by runs still rendering; they count against the allowance until consumed or refunded. */
  reserved: number;
  /** allowance − used − reserved, never below 0; null when unlimited. */
  remaining: number | null;
  resets_at: string;
}

export async function imageUsage(db: Knex, accountId: string, now: Date): Promise<ImageUsage> {
  const period = imagePeriod(now);
  const [plan, use] = await Promise.all([readPlan(db, accountId), store.periodUse(db, accountId, period)]);
  const allowance = plan.image_allowance_monthly;
  return {
    period,
    allowance,
    used: use.consumed,
    reserved: use.reserved,
    remaining: allowance === null ? null : Math.max(0, allowance - use.consumed - use.reserved),
    resets_at: periodResetsAt(now).toISOString(),
  };
}

/** What the images preview shows: units left this UTC month, null on an unlimited plan. */
export async function allowanceRemaining(db: Knex, accountId: string, now: Date): Promise<number | null> {
  return (await imageUsage(db, accountId, now)).remaining;
}

/** 402 `billing_standing` unless the account is in good standing. */
export async function requireGoodStanding(db: Knex, accountId: string): Promise<AccountPlan> {
  const plan = await readPlan(db, accountId);
  if (plan.billing_standing !== 'good') throw badBillingStanding(plan.billing_standing);
  return plan;
}

/** The image run's check before planning: 402 `quota_exhausted` when nothing is left; else the units left (null = unlimited). */
export async function requireImageAllowance(db: Knex, accountId: string, now: Date): Promise<number | null> {
  const usage = await imageUsage(db, accountId, now);
  if (usage.remaining === 0) {
    throw quotaExhausted({ allowance: usage.allowance!, used: usage.used + usage.reserved, period: usage.period });
  }
  return usage.remaining;
}

export interface ImageUnit {
  unit_key: string;
  period: string;
  status: UnitStatus;
  reserved_at: Date;
  settled_at: Date | null;
}

const unitOf = (row: ImageUnitRow): ImageUnit => ({
  unit_key: row.unit_key,
  period: row.period,
  status: row.status,
  reserved_at: row.reserved_at,
  settled_at: row.settled_at,
});

export interface Reservation {
  unit: ImageUnit;
  /** false: an earlier call with this key holds the unit (whatever its status now) and nothing was charged again. */
  created: boolean;
}

/**
 * Reserves one image unit under `unitKey` in `now`'s UTC month, or throws 402 `quota_exhausted`. Exact under
 * concurrency (one transaction per account at a time) and idempotent by key: a retried or restarted reservation gets
 * its existing unit back, so a refunded unit stays refunded rather than being charged again. An unlimited plan records
 * the unit (for usage) and never refuses.
 */
export async function reserveImageUnit(db: Knex, accountId: string, unitKey: string, now: Date = new Date()): Promise<Reservation> {
  return db.transaction(async (trx) => {
    await store.lockImageAllowance(trx, accountId);
    const existing = await store.findUnit(trx, accountId, unitKey);
    if (existing) return { unit: unitOf(existing), created: false };

    const period = imagePeriod(now);
    const { image_allowance_monthly: allowance } = await readPlan(trx, accountId);
    if (allowance !== null) {
      const use = await store.periodUse(trx, accountId, period);
      const used = use.reserved + use.consumed;
      if (used >= allowance) throw quotaExhausted({ allowance, used, period });
    }
    return { unit: unitOf(await store.insertUnit(trx, accountId, period, unitKey, now)), created: true };
  });
}

export interface Settlement {
  /** The unit as it is now; null when no unit has this key. */
  unit: ImageUnit | null;
  /** true only for the call that moved it out of `reserved`. */
  changed: boolean;
}

async function settle(db: Knex, accountId: string, unitKey: string, to: 'consumed' | 'refunded'): Promise<Settlement> {
  const moved = await store.settleUnit(db, accountId, unitKey, to);
  if (moved) return { unit: unitOf(moved), changed: true };
  const row = await store.findUnit(db, accountId, unitKey);
  return { unit: row ? unitOf(row) : null, changed: false };
}

/** reserved → consumed (the image rendered). Idempotent; a refunded unit stays refunded. */
export const consumeImageUnit = (db: Knex, accountId: string, unitKey: string) => settle(db, accountId, unitKey, 'consumed');

/** reserved → refunded (the render failed): the unit counts no more. Idempotent; a consumed unit is not refunded. */
export const refundImageUnit = (db: Knex, accountId: string, unitKey: string) => settle(db, accountId, unitKey, 'refunded');
