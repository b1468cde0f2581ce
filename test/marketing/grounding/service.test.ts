import assert from 'node:assert/strict';
import { ApiError } from '../../../src/http/errors';
import {
  avatarRef,
  findGrid,
  getAvatar,
  getGrid,
  getJourney,
  gridRef,
  journeyRef,
  stageNamed,
} from '../../../src/marketing/grounding/service';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { ABSENT_IDS, createAvatar, createGrid, createJourney } from './fixtures';

async function rejectsWith(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (err: unknown) => err instanceof ApiError && err.status === 404 && err.code === code);
}

describe('Grounding service functions for later jobs', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('getGrid returns the grid with its measurable results and testimonials in order, numbers as numbers', async () => {
    const created = await createGrid(acct.ownerToken, {
      results: [
        { metric: 'Revenue', before: 1000.25, after: 2500, unit: 'USD' },
        { metric: 'Churn', before: 5, after: 2, unit: '%' },
      ],
      testimonials: [
        { quote: 'It paid for itself.', attribution: 'Sam', consent: true },
        { quote: 'Fine.', consent: false },
      ],
    });
    const grid = await getGrid(harness().db, acct.accountId, created.id);
    assert.equal(grid.name, created.name);
    assert.deepEqual(grid.results, created.results);
    assert.deepEqual(grid.testimonials, created.testimonials);
    assert.strictEqual(grid.results[0].before, 1000.25);
  });

  it('get* of another account, a missing or a malformed id throw the coded 404; find* answer undefined', async () => {
    const db = harness().db;
    const [avatar, journey, grid] = await Promise.all([
      createAvatar(other.ownerToken),
      createJourney(other.ownerToken),
      createGrid(other.ownerToken),
    ]);
    for (const id of [grid.id, ...ABSENT_IDS]) {
      await rejectsWith(getGrid(db, acct.accountId, id), 'grid_not_found');
      assert.equal(await findGrid(db, acct.accountId, id), undefined);
    }
    await rejectsWith(getAvatar(db, acct.accountId, avatar.id), 'avatar_not_found');
    await rejectsWith(getJourney(db, acct.accountId, journey.id), 'journey_not_found');
    assert.equal((await getJourney(db, other.accountId, journey.id)).id, journey.id);
  });

  it("the *Ref functions give { id, name } of the account's objects and undefined for others or malformed ids", async () => {
    const db = harness().db;
    const [avatar, journey, grid] = await Promise.all([
      createAvatar(acct.ownerToken),
      createJourney(acct.ownerToken),
      createGrid(acct.ownerToken),
    ]);
    await db.transaction(async (trx) => {
      assert.deepEqual(await avatarRef(trx, acct.accountId, avatar.id), { id: avatar.id, name: avatar.name });
      assert.deepEqual(
        (await journeyRef(trx, acct.accountId, journey.id))?.stages.map((s) => s.name),
        ['Awareness', 'Consideration', 'Decision'],
      );
      assert.deepEqual(await gridRef(trx, acct.accountId, grid.id), { id: grid.id, name: grid.name });
      assert.equal(await avatarRef(trx, other.accountId, avatar.id), undefined);
      assert.equal(await gridRef(trx, acct.accountId, 'nope'), undefined);
    });
  });

  it("stageNamed finds a stage ignoring case and gives the map's own spelling", async () => {
    const journey = await getJourney(harness().db, acct.accountId, (await createJourney(acct.ownerToken)).id);
    assert.equal(stageNamed(journey, ' decision')?.name, 'Decision');
    assert.equal(stageNamed(journey, 'Retention'), undefined);
  });
});
