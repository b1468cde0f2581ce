import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { createItem, storedRow } from './fixtures';

/** A row as written before 2026-09-12: the keyword only in settings, the column null. */
async function insertLegacyRow(accountId: string, keyword: string, title = 'Legacy post') {
  const [row] = await harness()
    .db('content_items')
    .insert({
      account_id: accountId,
      title,
      target_keyword: null,
      settings: JSON.stringify({ target_keyword: keyword, tone: 'plain' }),
      created_at: new Date('2026-08-01T12:00:00Z'),
      updated_at: new Date('2026-08-01T12:00:00Z'),
    })
    .returning('id');
  return row.id as string;
}

describe('content target keyword', () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount();
  });

  it('target_keyword is stored in its own column and mirrored into settings.target_keyword', async () => {
    const item = await createItem(acct.ownerToken, { target_keyword: 'crm for plumbers', settings: { tone: 'warm' } });
    assert.equal(item.target_keyword, 'crm for plumbers');
    assert.deepEqual(item.settings, { tone: 'warm', target_keyword: 'crm for plumbers' });
    const row = await storedRow(item.id);
    assert.equal(row.target_keyword, 'crm for plumbers');
    assert.equal(row.settings.target_keyword, 'crm for plumbers');
  });

  it('a keyword sent only in settings on create lands in the column too', async () => {
    const item = await createItem(acct.ownerToken, { settings: { target_keyword: 'only in settings' } });
    assert.equal(item.target_keyword, 'only in settings');
    assert.equal((await storedRow(item.id)).target_keyword, 'only in settings');
  });

  it('rows written before 2026-09-12 (keyword only in settings) read it back on get, agent get, list and search', async () => {
    const id = await insertLegacyRow(acct.accountId, 'legacy keyword');
    const got = await call('GET', `/api/marketing/content/${id}`, { token: acct.ownerToken });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.target_keyword, 'legacy keyword');
    assert.equal(got.body.settings.target_keyword, 'legacy keyword');
    const agentGot = await call('GET', `/api/agent/marketing/content/${id}`, { token: acct.agentKey });
    assert.equal(agentGot.body.target_keyword, 'legacy keyword');
    const listed = await call('GET', '/api/marketing/content?search=legacy%20keyword', { token: acct.ownerToken });
    assert.deepEqual(
      listed.body.data.map((i: { id: string }) => i.id),
      [id],
    );
    assert.equal(listed.body.data[0].target_keyword, 'legacy keyword');
  });

  it('a legacy row keeps its keyword through an update that does not touch it', async () => {
    const id = await insertLegacyRow(acct.accountId, 'kept keyword');
    const res = await call('PUT', `/api/marketing/content/${id}`, { token: acct.ownerToken, body: { title: 'Edited legacy' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.target_keyword, 'kept keyword');
    assert.equal(res.body.settings.tone, 'plain');
    const row = await storedRow(id);
    assert.equal(row.target_keyword, 'kept keyword');
    assert.equal(row.settings.target_keyword, 'kept keyword');
  });

  it('PUT: a keyword typed into settings wins over the echoed top-level one, and both end equal', async () => {
    const item = await createItem(acct.ownerToken, { target_keyword: 'old keyword' });
    const res = await call('PUT', `/api/marketing/content/${item.id}`, {
      token: acct.ownerToken,
      body: { ...item, settings: { ...item.settings, target_keyword: 'typed in settings' } },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.target_keyword, 'typed in settings');
    assert.equal(res.body.settings.target_keyword, 'typed in settings');
    const row = await storedRow(item.id);
    assert.equal(row.target_keyword, 'typed in settings');
    assert.equal(row.settings.target_keyword, 'typed in settings');
  });

  it('PUT: when both copies are changed to different values, the settings one wins', async () => {
    const item = await createItem(acct.ownerToken, { target_keyword: 'old' });
    const res = await call('PUT', `/api/marketing/content/${item.id}`, {
      token: acct.ownerToken,
      body: { target_keyword: 'top level', settings: { target_keyword: 'settings' } },
    });
    assert.equal(res.body.target_keyword, 'settings');
    assert.equal(res.body.settings.target_keyword, 'settings');
  });

  it('PUT: a changed top-level keyword with settings echoing the stored one is taken, and both end equal', async () => {
    const item = await createItem(acct.ownerToken, { target_keyword: 'old' });
    const res = await call('PUT', `/api/marketing/content/${item.id}`, {
      token: acct.ownerToken,
      body: { ...item, target_keyword: 'new top level' },
    });
    assert.equal(res.body.target_keyword, 'new top level');
    assert.equal(res.body.settings.target_keyword, 'new top level');
  });

  it('agent PATCH: the top-level keyword wins over settings.target_keyword, and both end equal', async () => {
    const item = await createItem(acct.ownerToken, { target_keyword: 'old' });
    const res = await call('PATCH', `/api/agent/marketing/content/${item.id}`, {
      token: acct.agentKey,
      body: { target_keyword: 'top level wins', settings: { target_keyword: 'settings loses' } },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.target_keyword, 'top level wins');
    assert.equal(res.body.settings.target_keyword, 'top level wins');
    assert.equal((await storedRow(item.id)).settings.target_keyword, 'top level wins');
  });

  it('agent PATCH with the keyword only in settings takes it', async () => {
    const item = await createItem(acct.ownerToken, { target_keyword: 'old' });
    const res = await call('PATCH', `/api/agent/marketing/content/${item.id}`, {
      token: acct.agentKey,
      body: { settings: { target_keyword: 'via settings' } },
    });
    assert.equal(res.body.target_keyword, 'via settings');
    assert.equal((await storedRow(item.id)).target_keyword, 'via settings');
  });

  it('a keyword is trimmed and an empty one clears it', async () => {
    const item = await createItem(acct.ownerToken, { target_keyword: '  spaced  ' });
    assert.equal(item.target_keyword, 'spaced');
    const res = await call('PATCH', `/api/agent/marketing/content/${item.id}`, { token: acct.agentKey, body: { target_keyword: '' } });
    assert.equal(res.body.target_keyword, null);
    assert.equal('target_keyword' in res.body.settings, false);
  });
});
