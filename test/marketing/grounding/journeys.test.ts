import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { ABSENT_IDS, assertError, assertFieldError, createJourney } from './fixtures';

const stageNames = (journey: { stages: Array<{ name: string }> }) => journey.stages.map((s) => s.name);
const countJourneys = async (accountId: string) =>
  Number((await harness().db('customer_journeys').where({ account_id: accountId }).count({ n: '*' }))[0].n);

describe('Customer journey maps', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('creating a journey answers 201 with its stages in the order sent, each with a description or null', async () => {
    const stages = [
      { name: 'Decision', description: 'Picks a vendor' },
      { name: 'Awareness' },
      { name: 'Consideration', description: 'Compares options' },
      { name: 'Retention', description: '' },
    ];
    const res = await call('POST', '/api/marketing/journeys', {
      token: acct.ownerToken,
      body: { name: 'Odd order', description: 'Test map', stages },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      { name: res.body.name, description: res.body.description, stages: res.body.stages },
      {
        name: 'Odd order',
        description: 'Test map',
        stages: [
          { name: 'Decision', description: 'Picks a vendor' },
          { name: 'Awareness', description: null },
          { name: 'Consideration', description: 'Compares options' },
          { name: 'Retention', description: null },
        ],
      },
    );
    const got = await call('GET', `/api/marketing/journeys/${res.body.id}`, { token: acct.ownerToken });
    assert.deepEqual(got.body, res.body);
    const listed = await call('GET', '/api/marketing/journeys?search=odd', { token: acct.ownerToken });
    assert.deepEqual(stageNames(listed.body.data[0]), ['Decision', 'Awareness', 'Consideration', 'Retention']);
  });

  it('a journey has 1 to 20 stages: none or 21 is 400 naming body.stages and nothing is written', async () => {
    const before = await countJourneys(acct.accountId);
    assertFieldError(
      await call('POST', '/api/marketing/journeys', { token: acct.ownerToken, body: { name: 'J', stages: [] } }),
      'body.stages',
    );
    assertFieldError(await call('POST', '/api/marketing/journeys', { token: acct.ownerToken, body: { name: 'J' } }), 'body.stages');
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `Stage ${i + 1}` }));
    assertFieldError(
      await call('POST', '/api/marketing/journeys', { token: acct.ownerToken, body: { name: 'J', stages: many } }),
      'body.stages',
    );
    assert.equal(await countJourneys(acct.accountId), before);
    const twenty = await createJourney(acct.ownerToken, { stages: many.slice(0, 20) });
    assert.equal(twenty.stages.length, 20);
  });

  it('stage names are 1..255 characters and unique within a journey ignoring case; the repeat is named', async () => {
    const post = (stages: unknown) => call('POST', '/api/marketing/journeys', { token: acct.ownerToken, body: { name: 'J', stages } });
    const dup = await post([{ name: 'Awareness' }, { name: 'Decision' }, { name: 'DECISION ' }]);
    assertFieldError(dup, 'body.stages.2.name');
    assert.match(dup.body.errors[0].message, /stage 1/);
    assertFieldError(await post([{ name: 'x'.repeat(256) }]), 'body.stages.0.name');
    assertFieldError(await post([{ name: '' }]), 'body.stages.0.name');
    assertFieldError(await post([{ description: 'no name' }]), 'body.stages.0.name');
    assertFieldError(await post([{ name: 'A', order: 1 }]), 'body.stages.0');
    assertFieldError(await post(['Awareness']), 'body.stages.0');
    const ok = await createJourney(acct.ownerToken, { stages: [{ name: 'x'.repeat(255) }, { name: 'Same name' }] });
    assert.equal(ok.stages[0].name.length, 255);
    const sameNameOtherJourney = await createJourney(acct.ownerToken, { stages: [{ name: 'Same name' }] });
    assert.deepEqual(stageNames(sameNameOtherJourney), ['Same name']);
  });

  it('PATCH stages replaces the list in the new order; other fields stay', async () => {
    const journey = await createJourney(acct.ownerToken, { description: 'Keep' });
    const res = await call('PATCH', `/api/marketing/journeys/${journey.id}`, {
      token: acct.ownerToken,
      body: {
        stages: [
          { name: 'Decision' },
          { name: 'Consideration', description: 'Now with words' },
          { name: 'Awareness' },
          { name: 'Advocacy' },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(stageNames(res.body), ['Decision', 'Consideration', 'Awareness', 'Advocacy']);
    assert.equal(res.body.stages[1].description, 'Now with words');
    assert.deepEqual([res.body.name, res.body.description], [journey.name, 'Keep']);
    const renamed = await call('PATCH', `/api/marketing/journeys/${journey.id}`, {
      token: acct.ownerToken,
      body: { name: 'Renamed', description: null },
    });
    assert.deepEqual(
      [renamed.body.name, renamed.body.description, stageNames(renamed.body)],
      ['Renamed', null, ['Decision', 'Consideration', 'Awareness', 'Advocacy']],
    );
    const got = await call('GET', `/api/marketing/journeys/${journey.id}`, { token: acct.ownerToken });
    assert.deepEqual(got.body, renamed.body);
  });

  it('PATCH with bad stages is 400 naming the field and changes nothing', async () => {
    const journey = await createJourney(acct.ownerToken);
    assertFieldError(
      await call('PATCH', `/api/marketing/journeys/${journey.id}`, { token: acct.ownerToken, body: { name: 'New', stages: [] } }),
      'body.stages',
    );
    assertFieldError(
      await call('PATCH', `/api/marketing/journeys/${journey.id}`, {
        token: acct.ownerToken,
        body: { stages: [{ name: 'a' }, { name: 'A' }] },
      }),
      'body.stages.1.name',
    );
    assertFieldError(
      await call('PATCH', `/api/marketing/journeys/${journey.id}`, { token: acct.ownerToken, body: { stage_order: [1] } }),
      'body',
    );
    const got = await call('GET', `/api/marketing/journeys/${journey.id}`, { token: acct.ownerToken });
    assert.deepEqual(got.body, journey);
  });

  it('DELETE answers 204, then the journey is 404 journey_not_found', async () => {
    const journey = await createJourney(acct.ownerToken);
    assert.equal((await call('DELETE', `/api/marketing/journeys/${journey.id}`, { token: acct.ownerToken })).status, 204);
    assertError(await call('GET', `/api/marketing/journeys/${journey.id}`, { token: acct.ownerToken }), 404, 'journey_not_found');
  });

  it('a journey of another account, a missing id or a malformed id answers 404 journey_not_found on get, update and delete', async () => {
    const theirs = await createJourney(other.ownerToken, { name: 'Theirs' });
    for (const id of [theirs.id, ...ABSENT_IDS]) {
      assertError(await call('GET', `/api/marketing/journeys/${id}`, { token: acct.ownerToken }), 404, 'journey_not_found');
      assertError(
        await call('PATCH', `/api/marketing/journeys/${id}`, { token: acct.ownerToken, body: { name: 'Mine' } }),
        404,
        'journey_not_found',
      );
      assertError(await call('DELETE', `/api/marketing/journeys/${id}`, { token: acct.ownerToken }), 404, 'journey_not_found');
    }
    const still = await call('GET', `/api/marketing/journeys/${theirs.id}`, { token: other.ownerToken });
    assert.equal(still.body.name, 'Theirs');
    const mine = await call('GET', '/api/marketing/journeys?limit=100', { token: acct.ownerToken });
    assert.ok(!mine.body.data.some((j: { id: string }) => j.id === theirs.id));
  });

  it('lists journeys newest first as { data, total, page, limit }', async () => {
    const acctL = await newAccount();
    await createJourney(acctL.ownerToken, { name: 'First' });
    await createJourney(acctL.ownerToken, { name: 'Second' });
    const res = await call('GET', '/api/marketing/journeys?limit=1', { token: acctL.ownerToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      [res.body.data.map((j: { name: string }) => j.name), res.body.total, res.body.page, res.body.limit],
      [['Second'], 2, 1, 1],
    );
  });
});
