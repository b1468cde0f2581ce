import assert from 'node:assert/strict';
import { call } from '../helpers/http';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { assertFieldError, createContact, MISSING_ID, stageOfKind, stages } from './fixtures';

const createDeal = (token: string, body: unknown) => call('POST', '/api/crm/deals', { token, body });
const patchDeal = (token: string, id: string, body: unknown) => call('PATCH', `/api/crm/deals/${id}`, { token, body });
const countDeals = async (accountId: string) =>
  Number((await harness().db('crm_deals').where({ account_id: accountId }).count({ n: '*' }))[0].n);

describe('CRM deals', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let contactId: string;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    contactId = (await createContact(acct.ownerToken)).id;
  });

  it('creating a deal answers 201; without stageId it starts in the first open stage, open, without wonAt', async () => {
    const res = await createDeal(acct.ownerToken, {
      title: 'Annual plan',
      contactId,
      amount: 129900,
      currency: 'usd',
      sourceType: 'content_item',
      sourceId: 'c-1',
      sourceLabel: 'Pricing guide',
    });
    assert.equal(res.status, 201, res.text);
    const lead = (await stages(acct.ownerToken))[0];
    assert.deepEqual(
      {
        title: res.body.title,
        contactId: res.body.contactId,
        amount: res.body.amount,
        currency: res.body.currency,
        stageId: res.body.stageId,
        status: res.body.status,
        wonAt: res.body.wonAt,
      },
      { title: 'Annual plan', contactId, amount: 129900, currency: 'USD', stageId: lead.id, status: 'open', wonAt: null },
    );
    assert.deepEqual([res.body.sourceType, res.body.sourceId, res.body.sourceLabel], ['content_item', 'c-1', 'Pricing guide']);
  });

  it('amount defaults to 0; title and currency are required', async () => {
    const res = await createDeal(acct.ownerToken, { title: 'Small', currency: 'EUR' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.amount, 0);
    assertFieldError(await createDeal(acct.ownerToken, { currency: 'EUR' }), 'body.title');
    assertFieldError(await createDeal(acct.ownerToken, { title: 'x' }), 'body.currency');
  });

  it('amount must be a whole number ≥ 0 and currency 3 letters: otherwise 400 naming the field', async () => {
    for (const amount of [-1, 1.5, '100', 2 ** 60])
      assertFieldError(await createDeal(acct.ownerToken, { title: 'x', currency: 'USD', amount }), 'body.amount');
    for (const currency of ['US', 'USDX', '840', 'U$D'])
      assertFieldError(await createDeal(acct.ownerToken, { title: 'x', currency }), 'body.currency');
  });

  it('a deal created in a won stage gets wonAt', async () => {
    const won = await stageOfKind(acct.ownerToken, 'won');
    const res = await createDeal(acct.ownerToken, { title: 'Closed', currency: 'USD', stageId: won.id });
    assert.equal(res.body.status, 'won');
    assert.ok(Math.abs(Date.parse(res.body.wonAt) - Date.now()) < 60_000);
  });

  it('moving a deal into a won stage sets wonAt; moving it out clears it', async () => {
    const deal = (await createDeal(acct.ownerToken, { title: 'Moving', currency: 'USD' })).body;
    const [won, lost] = [await stageOfKind(acct.ownerToken, 'won'), await stageOfKind(acct.ownerToken, 'lost')];
    const winning = await patchDeal(acct.ownerToken, deal.id, { stageId: won.id });
    assert.equal(winning.status, 200, winning.text);
    assert.equal(winning.body.status, 'won');
    assert.ok(winning.body.wonAt);
    const same = await patchDeal(acct.ownerToken, deal.id, { stageId: won.id, amount: 500 });
    assert.equal(same.body.wonAt, winning.body.wonAt);
    assert.equal(same.body.amount, 500);
    const losing = await patchDeal(acct.ownerToken, deal.id, { stageId: lost.id });
    assert.equal(losing.body.status, 'lost');
    assert.equal(losing.body.wonAt, null);
  });

  it('the stage list counts deals per stage', async () => {
    const fresh = await newAccount();
    const won = await stageOfKind(fresh.ownerToken, 'won');
    await createDeal(fresh.ownerToken, { title: 'a', currency: 'USD', stageId: won.id });
    await createDeal(fresh.ownerToken, { title: 'b', currency: 'USD' });
    const counts = (await stages(fresh.ownerToken)).map((s) => [s.name, s.dealCount]);
    assert.deepEqual(counts, [
      ['Lead', 1],
      ['Qualified', 0],
      ['Proposal', 0],
      ['Negotiation', 0],
      ['Won', 1],
      ['Lost', 0],
    ]);
  });

  it('PATCH null clears contactId and attribution; an empty body changes nothing', async () => {
    const deal = (
      await createDeal(acct.ownerToken, {
        title: 'Attributed',
        currency: 'USD',
        contactId,
        sourceType: 'campaign',
        sourceId: '7',
        sourceLabel: 'Spring',
      })
    ).body;
    const empty = await patchDeal(acct.ownerToken, deal.id, {});
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, deal);
    const cleared = await patchDeal(acct.ownerToken, deal.id, { contactId: null, sourceType: null, sourceId: null, sourceLabel: null });
    assert.deepEqual(
      [cleared.body.contactId, cleared.body.sourceType, cleared.body.sourceId, cleared.body.sourceLabel],
      [null, null, null, null],
    );
    assertFieldError(await patchDeal(acct.ownerToken, deal.id, { title: null }), 'body.title');
    assertFieldError(await patchDeal(acct.ownerToken, deal.id, { won: true }), 'body');
  });

  it('a contactId or stageId of another account, or a missing one, is 400 invalid_reference naming it, and nothing is written', async () => {
    const theirContact = await createContact(other.ownerToken);
    const theirStage = await stageOfKind(other.ownerToken, 'won');
    const before = await countDeals(acct.accountId);
    for (const id of [theirContact.id, MISSING_ID]) {
      assertFieldError(
        await createDeal(acct.ownerToken, { title: 'x', currency: 'USD', contactId: id }),
        'body.contactId',
        'invalid_reference',
      );
    }
    for (const id of [theirStage.id, MISSING_ID]) {
      assertFieldError(
        await createDeal(acct.ownerToken, { title: 'x', currency: 'USD', stageId: id }),
        'body.stageId',
        'invalid_reference',
      );
    }
    assert.equal(await countDeals(acct.accountId), before);

    const deal = (await createDeal(acct.ownerToken, { title: 'Stay', currency: 'USD' })).body;
    assertFieldError(
      await patchDeal(acct.ownerToken, deal.id, { stageId: theirStage.id, title: 'Moved' }),
      'body.stageId',
      'invalid_reference',
    );
    assertFieldError(await patchDeal(acct.ownerToken, deal.id, { contactId: theirContact.id }), 'body.contactId', 'invalid_reference');
    const row = await harness().db('crm_deals').where({ id: deal.id }).first();
    assert.deepEqual([row.title, row.stage_id, row.contact_id], ['Stay', deal.stageId, null]);
  });

  it('a deal of another account, a missing or a malformed id answers 404 deal_not_found', async () => {
    const theirs = (await createDeal(other.ownerToken, { title: 'Theirs', currency: 'USD' })).body;
    for (const id of [theirs.id, MISSING_ID, 'xyz']) {
      const res = await patchDeal(acct.ownerToken, id, { title: 'Mine' });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'deal_not_found');
    }
    assert.equal((await harness().db('crm_deals').where({ id: theirs.id }).first()).title, 'Theirs');
  });

  describe('listing', () => {
    let acctL: TestAccount;
    let contactA: string;
    before(async () => {
      acctL = await newAccount();
      contactA = (await createContact(acctL.ownerToken)).id;
      const [won, lost] = [await stageOfKind(acctL.ownerToken, 'won'), await stageOfKind(acctL.ownerToken, 'lost')];
      for (const body of [
        { title: 'd1', currency: 'USD', contactId: contactA },
        { title: 'd2', currency: 'USD', stageId: won.id, contactId: contactA },
        { title: 'd3', currency: 'USD', stageId: lost.id },
      ])
        assert.equal((await createDeal(acctL.ownerToken, body)).status, 201);
    });
    const titles = (res: { body: any }) => res.body.data.map((d: { title: string }) => d.title);

    it('answers { data, total, page, limit }, newest first', async () => {
      const res = await call('GET', '/api/crm/deals', { token: acctL.ownerToken });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['data', 'limit', 'page', 'total']);
      assert.deepEqual(titles(res), ['d3', 'd2', 'd1']);
      assert.deepEqual([res.body.total, res.body.page, res.body.limit], [3, 1, 25]);
    });

    it('filters by status and contactId, and pages', async () => {
      const t = acctL.ownerToken;
      assert.deepEqual(titles(await call('GET', '/api/crm/deals?status=won', { token: t })), ['d2']);
      assert.deepEqual(titles(await call('GET', '/api/crm/deals?status=open', { token: t })), ['d1']);
      assert.deepEqual(titles(await call('GET', '/api/crm/deals?status=lost', { token: t })), ['d3']);
      assert.deepEqual(titles(await call('GET', `/api/crm/deals?contactId=${contactA}`, { token: t })), ['d2', 'd1']);
      const page2 = await call('GET', '/api/crm/deals?page=2&limit=2', { token: t });
      assert.deepEqual(titles(page2), ['d1']);
      assertFieldError(await call('GET', '/api/crm/deals?status=pending', { token: t }), 'query.status');
      assertFieldError(await call('GET', '/api/crm/deals?limit=500', { token: t }), 'query.limit');
    });

    it("another account's deals are never listed", async () => {
      assert.equal((await call('GET', `/api/crm/deals?contactId=${contactA}`, { token: other.ownerToken })).body.total, 0);
    });
  });
});
