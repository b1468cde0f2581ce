import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { withTargetLock } from '../../../src/sitePlatform/operations/locks';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';

describe('site platform write locks', () => {
  it('a second writer on a held target is 409 write_locked and does not run', async () => {
    const { db } = harness();
    const { accountId } = await newAccount();
    let ran = false;
    const outer = withTargetLock(db, accountId, 'item_id:a', () => sleep(150));
    await sleep(30);
    await assert.rejects(
      withTargetLock(db, accountId, 'item_id:a', async () => {
        ran = true;
      }),
      { code: 'write_locked' },
    );
    await outer;
    assert.equal(ran, false);
    assert.equal(await withTargetLock(db, accountId, 'item_id:a', async () => 'free again'), 'free again');
  });

  it('another target, or the same target on another account, is not blocked', async () => {
    const { db } = harness();
    const a = await newAccount();
    const b = await newAccount();
    const outer = withTargetLock(db, a.accountId, 'item_id:x', () => sleep(100));
    await withTargetLock(db, a.accountId, 'item_id:y', async () => undefined);
    await withTargetLock(db, b.accountId, 'item_id:x', async () => undefined);
    await outer;
  });

  it('a handler outliving the lock window is 409 write_unconfirmed, and an expired lock is taken over', async () => {
    const { db } = harness();
    const { accountId } = await newAccount();
    await assert.rejects(
      withTargetLock(db, accountId, 'page_id:p', () => sleep(200), 50),
      { code: 'write_unconfirmed' },
    );
    await db('site_platform_write_locks').insert({
      account_id: accountId,
      target: 'page_id:q',
      holder: crypto.randomUUID(),
      expires_at: new Date(Date.now() - 1000),
    });
    assert.equal(await withTargetLock(db, accountId, 'page_id:q', async () => 'taken over'), 'taken over');
  });
});
