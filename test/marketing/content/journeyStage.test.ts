import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { assertFieldError, createItem, insertJourney, rowCounts, storedRow } from './fixtures';

/** doc1 Content item: journey_stage is "the stage name as the journey map spells it" (≤ 255 characters). */
describe("journey_stage names a stage of the item's journey map", () => {
  let acct: TestAccount;
  let journey: { id: string; name: string };
  let otherJourney: { id: string; name: string };
  before(async () => {
    acct = await newAccount();
    // insertJourney's map has the stages Awareness and Decision.
    [journey, otherJourney] = await Promise.all([insertJourney(acct.accountId), insertJourney(acct.accountId)]);
  });

  const post = (body: Record<string, unknown>, agent = false) =>
    call('POST', `/api${agent ? '/agent' : ''}/marketing/content`, {
      token: agent ? acct.agentKey : acct.ownerToken,
      body: { title: 'Staged', ...body },
    });
  const put = (id: string, body: unknown) => call('PUT', `/api/marketing/content/${id}`, { token: acct.ownerToken, body });
  const patch = (id: string, body: unknown) => call('PATCH', `/api/agent/marketing/content/${id}`, { token: acct.agentKey, body });

  it('a stage is matched ignoring case and stored as the journey map spells it, on create, PUT and PATCH', async () => {
    for (const agent of [false, true]) {
      const created = await post({ journey_id: journey.id, journey_stage: 'dEcIsIoN' }, agent);
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.journey_stage, 'Decision');
      assert.equal((await storedRow(created.body.id)).journey_stage, 'Decision');
    }
    const item = await createItem(acct.ownerToken, { journey_id: journey.id });
    const viaPut = await put(item.id, { journey_stage: ' awareness ' });
    assert.equal(viaPut.status, 200, viaPut.text);
    assert.equal(viaPut.body.journey_stage, 'Awareness');
    const viaPatch = await patch(item.id, { journey_stage: 'DECISION' });
    assert.equal(viaPatch.status, 200, viaPatch.text);
    assert.equal(viaPatch.body.journey_stage, 'Decision');
  });

  it('a stage that is not on the journey map is 400 on create (dashboard and agent), and nothing is written', async () => {
    const counts = await rowCounts(acct.accountId);
    for (const agent of [false, true]) {
      const res = await post({ journey_id: journey.id, journey_stage: 'Retention' }, agent);
      assertFieldError(res, 'body.journey_stage');
      assert.match(res.body.errors[0].message, /Awareness, Decision/);
    }
    assert.deepEqual(await rowCounts(acct.accountId), counts);
  });

  it("a stage that is not on the item's stored journey map is 400 on PUT and PATCH, and the item stays as it was", async () => {
    const item = await createItem(acct.ownerToken, { journey_id: journey.id, journey_stage: 'Awareness' });
    const counts = await rowCounts(acct.accountId);
    assertFieldError(await put(item.id, { ...item, title: 'Changed', journey_stage: 'Consideration' }), 'body.journey_stage');
    assertFieldError(await patch(item.id, { journey_stage: 'Aware' }), 'body.journey_stage');
    const row = await storedRow(item.id);
    assert.equal(row.journey_stage, 'Awareness');
    assert.equal(row.title, item.title);
    assert.deepEqual(await rowCounts(acct.accountId), counts);
  });

  it('the stage is checked against the journey sent in the same request, and a kept stage against a newly sent journey', async () => {
    const renamed = await insertJourney(acct.accountId);
    const item = await createItem(acct.ownerToken, { journey_id: journey.id, journey_stage: 'Decision' });
    // otherJourney has the same two stages: moving to it keeps the stage valid.
    const moved = await patch(item.id, { journey_id: otherJourney.id });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.journey_stage, 'Decision');
    const both = await patch(item.id, { journey_id: renamed.id, journey_stage: 'awareness' });
    assert.equal(both.status, 200, both.text);
    assert.equal(both.body.journey_stage, 'Awareness');
    assert.equal(both.body.journey_id, renamed.id);
  });

  it('a newly sent journey whose map lacks the kept stage is 400', async () => {
    const [narrow] = await harness()
      .db('customer_journeys')
      .insert({ account_id: acct.accountId, name: 'Narrow journey', stages: JSON.stringify([{ name: 'Onboarding' }]) })
      .returning(['id']);
    const item = await createItem(acct.ownerToken, { journey_id: journey.id, journey_stage: 'Decision' });
    assertFieldError(await patch(item.id, { journey_id: narrow.id }), 'body.journey_stage');
    assert.equal((await storedRow(item.id)).journey_id, journey.id);
  });

  it('an editor echo of the stored journey and stage is accepted as it is', async () => {
    const item = await createItem(acct.ownerToken, { journey_id: journey.id, journey_stage: 'Decision' });
    const echo = await put(item.id, item);
    assert.equal(echo.status, 200, echo.text);
    assert.equal(echo.body.updated_at, item.updated_at);
  });

  it('without a journey, journey_stage is free text of at most 255 characters', async () => {
    const item = await createItem(acct.ownerToken, { journey_stage: 'Whatever we call it' });
    assert.equal(item.journey_stage, 'Whatever we call it');
    const cleared = await patch((await createItem(acct.ownerToken, { journey_id: journey.id, journey_stage: 'Decision' })).id, {
      journey_id: null,
      journey_stage: 'Free again',
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.journey_stage, 'Free again');
    assertFieldError(await post({ journey_stage: 's'.repeat(256) }), 'body.journey_stage');
  });
});
