import assert from 'node:assert/strict';
import { claimSearchCall, searchCallsThisMonth } from '../../../src/research/searchUsage';
import { harness } from '../../helpers/harness';
import { newAccount } from '../../helpers/accounts';

describe('monthly web-search cap', () => {
  const march = new Date(Date.UTC(2026, 2, 14, 12));

  it('claims calls up to the cap, then answers false and counts nothing more', async () => {
    const { db } = harness();
    const { accountId } = await newAccount();
    const answers: boolean[] = [];
    for (let i = 0; i < 5; i += 1) answers.push(await claimSearchCall(db, accountId, 3, march));
    assert.deepEqual(answers, [true, true, true, false, false]);
    assert.equal(await searchCallsThisMonth(db, accountId, march), 3);
  });

  it('concurrent claims never exceed the cap', async () => {
    const { db } = harness();
    const { accountId } = await newAccount();
    const answers = await Promise.all(Array.from({ length: 25 }, () => claimSearchCall(db, accountId, 7, march)));
    assert.equal(answers.filter(Boolean).length, 7);
    assert.equal(await searchCallsThisMonth(db, accountId, march), 7);
  });

  it('a new UTC month starts at 0', async () => {
    const { db } = harness();
    const { accountId } = await newAccount();
    const lastMinuteOfJanuary = new Date(Date.UTC(2026, 0, 31, 23, 59, 59));
    const firstMinuteOfFebruary = new Date(Date.UTC(2026, 1, 1, 0, 0, 1));
    assert.equal(await claimSearchCall(db, accountId, 1, lastMinuteOfJanuary), true);
    assert.equal(await claimSearchCall(db, accountId, 1, lastMinuteOfJanuary), false);
    assert.equal(await searchCallsThisMonth(db, accountId, firstMinuteOfFebruary), 0);
    assert.equal(await claimSearchCall(db, accountId, 1, firstMinuteOfFebruary), true);
    assert.equal(await searchCallsThisMonth(db, accountId, lastMinuteOfJanuary), 1);
  });

  it('a cap of 0 allows no call', async () => {
    const { db } = harness();
    const { accountId } = await newAccount();
    assert.equal(await claimSearchCall(db, accountId, 0, march), false);
    assert.equal(await searchCallsThisMonth(db, accountId, march), 0);
  });

  it('each account has its own allowance', async () => {
    const { db } = harness();
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    assert.equal(await claimSearchCall(db, a.accountId, 1, march), true);
    assert.equal(await claimSearchCall(db, a.accountId, 1, march), false);
    assert.equal(await claimSearchCall(db, b.accountId, 1, march), true);
  });
});
