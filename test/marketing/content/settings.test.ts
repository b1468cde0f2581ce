import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { assertFieldError, createItem, plan, rowCounts, storedRow } from './fixtures';

describe('content settings and distribution plan', () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount();
  });

  const put = (id: string, body: unknown) => call('PUT', `/api/marketing/content/${id}`, { token: acct.ownerToken, body });
  const patch = (id: string, body: unknown) => call('PATCH', `/api/agent/marketing/content/${id}`, { token: acct.agentKey, body });

  it('settings sent on PUT are merged into the stored object, never replace it', async () => {
    const item = await createItem(acct.ownerToken, { settings: { tone: 'warm', audience: 'owners' } });
    const res = await put(item.id, { settings: { tone: 'dry', length: 'long' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.settings, { tone: 'dry', audience: 'owners', length: 'long' });
    assert.deepEqual((await storedRow(item.id)).settings, { tone: 'dry', audience: 'owners', length: 'long' });
  });

  it('settings sent on the agent PATCH are merged too, and a key sent as null is removed', async () => {
    const item = await createItem(acct.ownerToken, { settings: { tone: 'warm', audience: 'owners' } });
    const res = await patch(item.id, { settings: { audience: null, cta: 'demo' } });
    assert.deepEqual(res.body.settings, { tone: 'warm', cta: 'demo' });
  });

  it('a write with only settings.distribution_plan keeps every sibling key', async () => {
    const item = await createItem(acct.ownerToken, { target_keyword: 'kw', settings: { tone: 'warm', research: { sources: 3 } } });
    const res = await patch(item.id, { settings: { distribution_plan: plan(2) } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.settings.distribution_plan, plan(2));
    assert.equal(res.body.settings.tone, 'warm');
    assert.deepEqual(res.body.settings.research, { sources: 3 });
    assert.equal(res.body.settings.target_keyword, 'kw');
    assert.equal(res.body.target_keyword, 'kw');
  });

  it('a valid plan with every channel, status and link kind is stored and read back', async () => {
    const channels = [
      { channel: 'email_digest', format: 'digest', status: 'planned' },
      { channel: 'social', format: 'thread', status: 'drafted', link: 'social_post:5f1c' },
      { channel: 'community', format: 'post', status: 'scheduled', scheduled_for: '2027-02-01T09:00:00Z' },
      { channel: 'partner', format: 'guest post', status: 'done', link: 'https://partner.example/post' },
      { channel: 'outreach', format: 'email', status: 'skipped', link: 'task:9a', note: 'no list yet' },
      { channel: 'paid', format: 'ad', status: 'planned', link: 'campaign:c-1' },
    ];
    const item = await createItem(acct.ownerToken, {
      settings: { distribution_plan: { owned_first: false, channels, written_at: '2026-11-01T00:00:00Z' } },
    });
    assert.deepEqual(item.settings.distribution_plan.channels, channels);
    assert.equal(item.settings.distribution_plan.owned_first, false);
  });

  it('a plan sent without written_at is stamped with the time of the write', async () => {
    const { written_at: _, ...unstamped } = plan(1);
    const before = Date.now();
    const item = await createItem(acct.ownerToken, { settings: { distribution_plan: unstamped } });
    const stamped = Date.parse(item.settings.distribution_plan.written_at);
    assert.ok(stamped >= before - 1000 && stamped <= Date.now() + 1000, item.settings.distribution_plan.written_at);
  });

  it('a plan of 12 rows is accepted and one of 13 rows is 400, with nothing written', async () => {
    const item = await createItem(acct.ownerToken, { settings: { tone: 'warm' } });
    assert.equal((await patch(item.id, { settings: { distribution_plan: plan(12) } })).body.settings.distribution_plan.channels.length, 12);
    const counts = await rowCounts(acct.accountId);
    assertFieldError(await patch(item.id, { settings: { distribution_plan: plan(13) } }), 'body.settings.distribution_plan.channels');
    assertFieldError(
      await call('POST', '/api/marketing/content', {
        token: acct.ownerToken,
        body: { title: 't', settings: { distribution_plan: plan(13) } },
      }),
      'body.settings.distribution_plan.channels',
    );
    assert.deepEqual(await rowCounts(acct.accountId), counts);
    assert.equal((await storedRow(item.id)).settings.distribution_plan.channels.length, 12);
  });

  it('a malformed plan is refused on write: bad channel, bad status, bad link, missing member, unknown member', async () => {
    const item = await createItem(acct.ownerToken);
    const row = plan(1).channels[0];
    const bad: Array<[unknown, string]> = [
      [{ ...plan(1), channels: [{ ...row, channel: 'tv' }] }, 'body.settings.distribution_plan.channels.0.channel'],
      [{ ...plan(1), channels: [{ ...row, status: 'sent' }] }, 'body.settings.distribution_plan.channels.0.status'],
      [{ ...plan(1), channels: [{ ...row, link: 'post:12' }] }, 'body.settings.distribution_plan.channels.0.link'],
      [{ ...plan(1), channels: [{ ...row, link: 'ftp://x.example' }] }, 'body.settings.distribution_plan.channels.0.link'],
      [{ channels: [], written_at: '2026-11-01T00:00:00Z' }, 'body.settings.distribution_plan.owned_first'],
      [{ ...plan(1), channels: [{ ...row, colour: 'red' }] }, 'body.settings.distribution_plan.channels.0'],
      ['not a plan', 'body.settings.distribution_plan'],
    ];
    for (const [distribution_plan, path] of bad) assertFieldError(await put(item.id, { settings: { distribution_plan } }), path);
    assert.deepEqual((await storedRow(item.id)).settings, {});
  });

  it('a malformed plan already stored is read as no plan, and its siblings still read', async () => {
    const item = await createItem(acct.ownerToken);
    await harness()
      .db('content_items')
      .where({ id: item.id })
      .update({ settings: JSON.stringify({ tone: 'warm', distribution_plan: { channels: 'everywhere' } }) });
    for (const res of [
      await call('GET', `/api/marketing/content/${item.id}`, { token: acct.ownerToken }),
      await call('GET', `/api/agent/marketing/content/${item.id}`, { token: acct.agentKey }),
    ]) {
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.settings, { tone: 'warm' });
    }
    const listed = await call('GET', '/api/marketing/content', { token: acct.ownerToken });
    assert.deepEqual(listed.body.data.find((i: { id: string }) => i.id === item.id).settings, { tone: 'warm' });
  });

  it('a stored plan of 13 rows is read as no plan', async () => {
    const item = await createItem(acct.ownerToken);
    await harness()
      .db('content_items')
      .where({ id: item.id })
      .update({ settings: JSON.stringify({ distribution_plan: plan(13) }) });
    const res = await call('GET', `/api/marketing/content/${item.id}`, { token: acct.ownerToken });
    assert.equal('distribution_plan' in res.body.settings, false);
  });

  it('a new valid plan replaces a malformed stored one, and null removes a plan', async () => {
    const item = await createItem(acct.ownerToken);
    await harness()
      .db('content_items')
      .where({ id: item.id })
      .update({ settings: JSON.stringify({ distribution_plan: 'junk' }) });
    assert.deepEqual((await patch(item.id, { settings: { distribution_plan: plan(1) } })).body.settings.distribution_plan, plan(1));
    const cleared = await patch(item.id, { settings: { distribution_plan: null } });
    assert.equal('distribution_plan' in cleared.body.settings, false);
    assert.equal('distribution_plan' in (await storedRow(item.id)).settings, false);
  });

  it('settings that are not an object are 400', async () => {
    const item = await createItem(acct.ownerToken);
    assertFieldError(await put(item.id, { settings: ['a'] }), 'body.settings');
  });
});
