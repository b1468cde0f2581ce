import assert from 'node:assert/strict';
import { consumeImageUnit, refundImageUnit, reserveImageUnit, setPlan } from '../../../src/billing/service';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const BODY = [
  '<p>Opening lines.</p>',
  `<h2>Introduction</h2><p>${words(60)}</p>`,
  `<h2>Finding the leak</h2><p>${words(45)}</p>`,
  `<h2>Already shown</h2><p>${words(45)}</p><figure><img src="https://cdn.example.test/x.png" alt=""></figure>`,
  `<div><h2>Replacing tiles</h2></div><p>${words(41)}</p>`,
  `<h2>Quick tip</h2><p>${words(10)}</p>`,
].join('');

async function newItem(accountId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const [row] = await harness()
    .db('content_items')
    .insert({ account_id: accountId, title: 'Fixing a leaking roof', body: BODY, ...fields })
    .returning('id');
  return row.id;
}

const preview = (token: string, id: string, agent = false) =>
  call('GET', `${agent ? '/api/agent' : '/api'}/marketing/content/${id}/images`, { token });

describe('images preview (GET /api/marketing/content/{id}/images)', () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount('Preview Co');
  });

  it('lists every H2 with has_image, the hero and the sections the heuristic would illustrate, and an unlimited allowance as null', async () => {
    const id = await newItem(acct.accountId);
    const res = await preview(acct.ownerToken, id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      content_id: id,
      sections: [
        { index: 0, heading: 'Introduction', has_image: false },
        { index: 1, heading: 'Finding the leak', has_image: false },
        { index: 2, heading: 'Already shown', has_image: true },
        { index: 3, heading: 'Replacing tiles', has_image: false },
        { index: 4, heading: 'Quick tip', has_image: false },
      ],
      candidates: [
        { slot: 'hero', heading: null, index: null },
        { slot: 'section:1', heading: 'Finding the leak', index: 1 },
        { slot: 'section:3', heading: 'Replacing tiles', index: 3 },
      ],
      allowance: { remaining: null },
    });
  });

  it('no hero candidate when the item already has a featured image (the preview keeps it)', async () => {
    const id = await newItem(acct.accountId, { featured_image_url: 'https://cdn.example.test/f.png' });
    const res = await preview(acct.ownerToken, id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.candidates.map((c: { slot: string }) => c.slot),
      ['section:1', 'section:3'],
    );
  });

  it('allowance.remaining is the monthly allowance minus the units used and reserved this UTC month', async () => {
    const limited = await newAccount('Limited Co');
    await setPlan(harness().db, limited.accountId, { image_allowance_monthly: 10 });
    const db = harness().db;
    for (const key of ['a', 'b', 'c']) await reserveImageUnit(db, limited.accountId, key);
    await consumeImageUnit(db, limited.accountId, 'a');
    await refundImageUnit(db, limited.accountId, 'c');
    const res = await preview(limited.ownerToken, await newItem(limited.accountId));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.allowance, { remaining: 8 });
  });

  it('an item without a body has no sections and the hero as its only candidate', async () => {
    const res = await preview(acct.ownerToken, await newItem(acct.accountId, { body: null }));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.sections, []);
    assert.deepEqual(res.body.candidates, [{ slot: 'hero', heading: null, index: null }]);
  });

  it('the agent twin answers the same with marketing.content:read, and 403 without it', async () => {
    const id = await newItem(acct.accountId);
    const reader = await newAgentKey(acct.accountId, ['marketing.content:read'], true);
    const [dashboard, agent] = await Promise.all([preview(acct.ownerToken, id), preview(reader, id, true)]);
    assert.equal(agent.status, 200, agent.text);
    assert.deepEqual(agent.body, dashboard.body);
    const other = await newAgentKey(acct.accountId, ['marketing.reports:read'], true);
    assert.equal((await preview(other, id, true)).status, 403);
  });

  it("404 content_not_found for an unknown id, a malformed id and another account's item", async () => {
    const stranger = await newAccount('Other Co');
    const theirs = await newItem(stranger.accountId);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', theirs]) {
      const res = await preview(acct.ownerToken, id);
      assert.equal(res.status, 404, id);
      assert.equal(res.body.code, 'content_not_found');
    }
  });

  it('the preview spends nothing: no image unit is reserved', async () => {
    const limited = await newAccount('Frugal Co');
    await setPlan(harness().db, limited.accountId, { image_allowance_monthly: 3 });
    const id = await newItem(limited.accountId);
    await preview(limited.ownerToken, id);
    const res = await preview(limited.ownerToken, id);
    assert.deepEqual(res.body.allowance, { remaining: 3 });
  });
});
