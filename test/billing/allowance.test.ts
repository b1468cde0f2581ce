import assert from 'node:assert/strict';
import {
  allowanceRemaining,
  consumeImageUnit,
  imageUsage,
  refundImageUnit,
  requireGoodStanding,
  requireImageAllowance,
  reserveImageUnit,
  setPlan,
} from '../../src/billing/service';
import { createDb } from '../../src/db/knex';
import { ApiError } from '../../src/http/errors';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';

const NOV = new Date('2026-11-15T12:00:00Z');
const DEC = new Date('2026-12-01T00:00:00Z');

async function accountWithAllowance(allowance: number | null) {
  const { accountId } = await newAccount();
  await setPlan(harness().db, accountId, { image_allowance_monthly: allowance });
  return accountId;
}

function isApiError(status: number, code: string, details?: Record<string, unknown>) {
  return (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, status);
    assert.equal(err.code, code);
    if (details) assert.deepEqual(err.extra.details, details);
    return true;
  };
}

describe('image allowance', () => {
  it('reserves up to the allowance, then answers 402 quota_exhausted with allowance, used and period', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(3);
    for (const key of ['a', 'b', 'c']) assert.equal((await reserveImageUnit(db, accountId, key, NOV)).created, true);
    await assert.rejects(
      reserveImageUnit(db, accountId, 'd', NOV),
      isApiError(402, 'quota_exhausted', { allowance: 3, used: 3, period: '2026-11' }),
    );
    await assert.rejects(requireImageAllowance(db, accountId, NOV), isApiError(402, 'quota_exhausted'));
    assert.equal(await allowanceRemaining(db, accountId, NOV), 0);
  });

  it('an allowance of 0 refuses the first unit', async () => {
    const accountId = await accountWithAllowance(0);
    await assert.rejects(
      reserveImageUnit(harness().db, accountId, 'a', NOV),
      isApiError(402, 'quota_exhausted', { allowance: 0, used: 0, period: '2026-11' }),
    );
  });

  it('the same unit key reserved twice charges once', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(2);
    const first = await reserveImageUnit(db, accountId, 'run:hero', NOV);
    const again = await reserveImageUnit(db, accountId, 'run:hero', NOV);
    assert.equal(first.created, true);
    assert.equal(again.created, false);
    assert.deepEqual(again.unit, first.unit);
    assert.equal((await imageUsage(db, accountId, NOV)).reserved, 1);
    assert.equal(await allowanceRemaining(db, accountId, NOV), 1);
  });

  it('the same key answers its existing unit even when the allowance is used up since', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(1);
    await reserveImageUnit(db, accountId, 'k', NOV);
    const again = await reserveImageUnit(db, accountId, 'k', NOV);
    assert.equal(again.created, false);
    assert.equal(again.unit.status, 'reserved');
  });

  it('a refund returns the unit to the allowance; a second refund changes nothing', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(1);
    await reserveImageUnit(db, accountId, 'k1', NOV);
    const refund = await refundImageUnit(db, accountId, 'k1');
    assert.equal(refund.changed, true);
    assert.equal(refund.unit?.status, 'refunded');
    assert.ok(refund.unit?.settled_at instanceof Date);
    assert.equal(await allowanceRemaining(db, accountId, NOV), 1);

    const second = await refundImageUnit(db, accountId, 'k1');
    assert.equal(second.changed, false);
    assert.equal(second.unit?.status, 'refunded');
    assert.equal(await allowanceRemaining(db, accountId, NOV), 1);
  });

  it('a refunded unit key reserved again stays refunded and charges nothing', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(1);
    await reserveImageUnit(db, accountId, 'k', NOV);
    await refundImageUnit(db, accountId, 'k');
    const again = await reserveImageUnit(db, accountId, 'k', NOV);
    assert.equal(again.created, false);
    assert.equal(again.unit.status, 'refunded');
    assert.equal(await allowanceRemaining(db, accountId, NOV), 1);
  });

  it('a consumed unit is not refundable, and consuming twice changes nothing', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(2);
    await reserveImageUnit(db, accountId, 'k', NOV);
    assert.equal((await consumeImageUnit(db, accountId, 'k')).changed, true);
    assert.equal((await consumeImageUnit(db, accountId, 'k')).changed, false);
    const refund = await refundImageUnit(db, accountId, 'k');
    assert.equal(refund.changed, false);
    assert.equal(refund.unit?.status, 'consumed');
    const usage = await imageUsage(db, accountId, NOV);
    assert.deepEqual({ used: usage.used, reserved: usage.reserved, remaining: usage.remaining }, { used: 1, reserved: 0, remaining: 1 });
  });

  it('a refunded unit is not consumed; an unknown key settles nothing', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(2);
    await reserveImageUnit(db, accountId, 'k', NOV);
    await refundImageUnit(db, accountId, 'k');
    const consume = await consumeImageUnit(db, accountId, 'k');
    assert.equal(consume.changed, false);
    assert.equal(consume.unit?.status, 'refunded');
    assert.deepEqual(await refundImageUnit(db, accountId, 'never'), { unit: null, changed: false });
  });

  it('50 concurrent reserves against an allowance of 10 reserve exactly 10', async () => {
    const accountId = await accountWithAllowance(10);
    // Its own pool, so the reservations really run on separate connections at once.
    const pool = createDb(harness().databaseUrl, 20);
    try {
      const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => reserveImageUnit(pool, accountId, `unit-${i}`, NOV)));
      const reserved = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r) => r.status === 'rejected');
      assert.equal(reserved.length, 10);
      assert.equal(refused.length, 40);
      for (const r of refused) isApiError(402, 'quota_exhausted')((r as PromiseRejectedResult).reason);
    } finally {
      await pool.destroy();
    }
    const [{ count }] = await harness()
      .db('image_allowance_units')
      .where({ account_id: accountId })
      .count<{ count: number }[]>('* as count');
    assert.equal(Number(count), 10);
  });

  it('concurrent reserves of one unit key charge once', async () => {
    const accountId = await accountWithAllowance(5);
    const pool = createDb(harness().databaseUrl, 10);
    try {
      const results = await Promise.all(Array.from({ length: 10 }, () => reserveImageUnit(pool, accountId, 'same', NOV)));
      assert.equal(results.filter((r) => r.created).length, 1);
    } finally {
      await pool.destroy();
    }
    assert.equal(await allowanceRemaining(harness().db, accountId, NOV), 4);
  });

  it('a new UTC month starts fresh', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(1);
    await reserveImageUnit(db, accountId, 'nov', NOV);
    await assert.rejects(
      reserveImageUnit(db, accountId, 'nov-2', new Date('2026-11-30T23:59:59.999Z')),
      isApiError(402, 'quota_exhausted'),
    );
    const dec = await reserveImageUnit(db, accountId, 'dec', DEC);
    assert.equal(dec.unit.period, '2026-12');
    assert.equal(await allowanceRemaining(db, accountId, DEC), 0);
    assert.equal((await imageUsage(db, accountId, NOV)).reserved, 1);
    assert.equal((await imageUsage(db, accountId, NOV)).resets_at, '2026-12-01T00:00:00.000Z');
  });

  it('an unlimited plan records its units but never refuses', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(null);
    for (let i = 0; i < 25; i++) await reserveImageUnit(db, accountId, `u${i}`, NOV);
    const usage = await imageUsage(db, accountId, NOV);
    assert.equal(usage.reserved, 25);
    assert.equal(usage.remaining, null);
    assert.equal(await requireImageAllowance(db, accountId, NOV), null);
  });

  it('lowering the allowance below what is reserved leaves 0 remaining, never negative', async () => {
    const db = harness().db;
    const accountId = await accountWithAllowance(3);
    for (const key of ['a', 'b', 'c']) await reserveImageUnit(db, accountId, key, NOV);
    await setPlan(db, accountId, { image_allowance_monthly: 1 });
    assert.equal(await allowanceRemaining(db, accountId, NOV), 0);
    await assert.rejects(
      reserveImageUnit(db, accountId, 'd', NOV),
      isApiError(402, 'quota_exhausted', { allowance: 1, used: 3, period: '2026-11' }),
    );
  });

  it("another account's usage never counts", async () => {
    const db = harness().db;
    const mine = await accountWithAllowance(2);
    const theirs = await accountWithAllowance(2);
    await reserveImageUnit(db, theirs, 'shared-key', NOV);
    await reserveImageUnit(db, theirs, 'other', NOV);
    assert.equal(await allowanceRemaining(db, mine, NOV), 2);
    const reservation = await reserveImageUnit(db, mine, 'shared-key', NOV);
    assert.equal(reservation.created, true);
    assert.deepEqual(await refundImageUnit(db, mine, 'other'), { unit: null, changed: false });
    assert.equal((await imageUsage(db, theirs, NOV)).reserved, 2);
  });
});

describe('billing standing', () => {
  it('good standing passes, also without a plan row', async () => {
    const { accountId } = await newAccount();
    assert.equal((await requireGoodStanding(harness().db, accountId)).billing_standing, 'good');
  });

  it('standing past_due answers 402 billing_standing naming the standing', async () => {
    const { accountId } = await newAccount();
    await setPlan(harness().db, accountId, { billing_standing: 'past_due' });
    await assert.rejects(
      requireGoodStanding(harness().db, accountId),
      isApiError(402, 'billing_standing', { billing_standing: 'past_due' }),
    );
    for (const standing of ['unpaid', 'suspended'] as const) {
      await setPlan(harness().db, accountId, { billing_standing: standing });
      await assert.rejects(
        requireGoodStanding(harness().db, accountId),
        isApiError(402, 'billing_standing', { billing_standing: standing }),
      );
    }
  });
});
