import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { createAvatar, createGrid, createJourney } from './fixtures';

describe('Deleting a grounding object that content references', () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount();
  });

  it('the content item keeps existing with avatar_id, journey_id and before_after_grid_id null; journey_stage stays', async () => {
    const [avatar, journey, grid] = await Promise.all([
      createAvatar(acct.ownerToken),
      createJourney(acct.ownerToken),
      createGrid(acct.ownerToken),
    ]);
    const db = harness().db;
    const [item] = await db('content_items')
      .insert({
        account_id: acct.accountId,
        title: 'Grounded post',
        avatar_id: avatar.id,
        journey_id: journey.id,
        journey_stage: 'Decision',
        before_after_grid_id: grid.id,
      })
      .returning('id');
    for (const path of [`avatars/${avatar.id}`, `journeys/${journey.id}`, `before-after-grids/${grid.id}`]) {
      const res = await call('DELETE', `/api/marketing/${path}`, { token: acct.ownerToken });
      assert.equal(res.status, 204, res.text);
    }
    const row = await db('content_items').where({ id: item.id }).first();
    assert.ok(row, 'the content item was deleted with its grounding');
    assert.deepEqual(
      [row.title, row.avatar_id, row.journey_id, row.before_after_grid_id, row.journey_stage],
      ['Grounded post', null, null, null, 'Decision'],
    );
  });
});
