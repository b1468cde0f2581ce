import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { assertFieldError, createItem, insertAvatar, insertCategory, insertGrid, insertJourney, MISSING_ID, rowCounts } from './fixtures';

const GROUNDING = ['avatar_id', 'journey_id', 'journey_stage', 'before_after_grid_id', 'target_keyword'];
const OBJECTS = ['customer_avatar', 'customer_journey', 'before_after_grid'];

describe('content grounding fields', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let ground: { avatar_id: string; journey_id: string; before_after_grid_id: string };
  let names: { avatar: string; journey: string; grid: string };

  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    const [avatar, journey, grid] = await Promise.all([
      insertAvatar(acct.accountId),
      insertJourney(acct.accountId),
      insertGrid(acct.accountId),
    ]);
    ground = { avatar_id: avatar.id, journey_id: journey.id, before_after_grid_id: grid.id };
    names = { avatar: avatar.name, journey: journey.name, grid: grid.name };
  });

  it('the five grounding fields and the three objects are present and null on an ungrounded item, on every route', async () => {
    const created = await createItem(acct.ownerToken);
    const got = await call('GET', `/api/marketing/content/${created.id}`, { token: acct.ownerToken });
    const agentGot = await call('GET', `/api/agent/marketing/content/${created.id}`, { token: acct.agentKey });
    const listed = await call('GET', '/api/marketing/content', { token: acct.ownerToken });
    const put = await call('PUT', `/api/marketing/content/${created.id}`, { token: acct.ownerToken, body: { excerpt: 'x' } });
    const patched = await call('PATCH', `/api/agent/marketing/content/${created.id}`, { token: acct.agentKey, body: { excerpt: 'y' } });
    const listedItem = listed.body.data.find((i: { id: string }) => i.id === created.id);
    for (const item of [created, got.body, agentGot.body, listedItem, put.body, patched.body]) {
      for (const key of [...GROUNDING, ...OBJECTS]) assert.ok(key in item && item[key] === null, `${key} in ${JSON.stringify(item)}`);
    }
  });

  it('the { id, name } objects come back on create, get, list, PUT and PATCH', async () => {
    const created = await createItem(acct.ownerToken, { ...ground, journey_stage: 'Decision' });
    const expect = (item: any) => {
      assert.deepEqual(item.customer_avatar, { id: ground.avatar_id, name: names.avatar });
      assert.deepEqual(item.customer_journey, { id: ground.journey_id, name: names.journey });
      assert.deepEqual(item.before_after_grid, { id: ground.before_after_grid_id, name: names.grid });
      assert.equal(item.journey_stage, 'Decision');
    };
    expect(created);
    expect((await call('GET', `/api/marketing/content/${created.id}`, { token: acct.ownerToken })).body);
    expect((await call('GET', `/api/agent/marketing/content/${created.id}`, { token: acct.agentKey })).body);
    const listed = await call('GET', `/api/agent/marketing/content?avatar_id=${ground.avatar_id}`, { token: acct.agentKey });
    expect(listed.body.data.find((i: { id: string }) => i.id === created.id));
    expect((await call('PUT', `/api/marketing/content/${created.id}`, { token: acct.ownerToken, body: { title: 'Renamed' } })).body);
    expect((await call('PATCH', `/api/agent/marketing/content/${created.id}`, { token: acct.agentKey, body: { title: 'Again' } })).body);
  });

  it('an avatar, journey, grid or category of another account is 400 invalid_reference on create, and nothing is written', async () => {
    const foreign = {
      avatar_id: (await insertAvatar(other.accountId)).id,
      journey_id: (await insertJourney(other.accountId)).id,
      before_after_grid_id: (await insertGrid(other.accountId)).id,
      category_id: (await insertCategory(other.accountId)).id,
    };
    const before = await rowCounts(acct.accountId);
    for (const [field, id] of Object.entries(foreign)) {
      for (const token of [acct.ownerToken, acct.agentKey]) {
        const path = token === acct.ownerToken ? '/api/marketing/content' : '/api/agent/marketing/content';
        const res = await call('POST', path, { token, body: { title: 'Refused', ...ground, [field]: id } });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.code, 'invalid_reference');
        assert.equal(res.body.field, field);
      }
    }
    const unknown = await call('POST', '/api/marketing/content', {
      token: acct.ownerToken,
      body: { title: 'Refused', avatar_id: MISSING_ID },
    });
    assert.equal(unknown.body.code, 'invalid_reference');
    assert.deepEqual(await rowCounts(acct.accountId), before);
  });

  it('a foreign or unknown id on PUT or PATCH is 400 invalid_reference and no field of the write is applied', async () => {
    const item = await createItem(acct.ownerToken, { ...ground });
    const foreignGrid = (await insertGrid(other.accountId)).id;
    const before = await rowCounts(acct.accountId);
    const put = await call('PUT', `/api/marketing/content/${item.id}`, {
      token: acct.ownerToken,
      body: { title: 'Changed', journey_stage: 'Awareness', before_after_grid_id: foreignGrid },
    });
    assert.equal(put.status, 400, put.text);
    assert.equal(put.body.code, 'invalid_reference');
    const patch = await call('PATCH', `/api/agent/marketing/content/${item.id}`, {
      token: acct.agentKey,
      body: { title: 'Changed', journey_id: MISSING_ID },
    });
    assert.equal(patch.body.code, 'invalid_reference');
    assert.equal(patch.body.field, 'journey_id');
    const after = await call('GET', `/api/marketing/content/${item.id}`, { token: acct.ownerToken });
    assert.equal(after.body.title, item.title);
    assert.equal(after.body.journey_stage, null);
    assert.equal(after.body.updated_at, item.updated_at);
    assert.deepEqual(await rowCounts(acct.accountId), before);
  });

  it('a malformed grounding id is 400 validation_failed naming the field', async () => {
    const res = await call('POST', '/api/marketing/content', { token: acct.ownerToken, body: { title: 'x', avatar_id: 'not-a-uuid' } });
    assertFieldError(res, 'body.avatar_id');
  });

  it('PUT: null clears a grounding field and an absent key leaves it', async () => {
    const item = await createItem(acct.ownerToken, { ...ground, journey_stage: 'Awareness', target_keyword: 'crm software' });
    const res = await call('PUT', `/api/marketing/content/${item.id}`, {
      token: acct.ownerToken,
      body: { avatar_id: null, journey_stage: null, target_keyword: null },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.avatar_id, null);
    assert.equal(res.body.customer_avatar, null);
    assert.equal(res.body.journey_stage, null);
    assert.equal(res.body.target_keyword, null);
    assert.equal('target_keyword' in res.body.settings, false);
    assert.equal(res.body.journey_id, ground.journey_id);
    assert.equal(res.body.before_after_grid_id, ground.before_after_grid_id);
    assert.deepEqual(res.body.customer_journey, { id: ground.journey_id, name: names.journey });
  });

  it('the agent PATCH also clears with null and leaves absent keys', async () => {
    const item = await createItem(acct.ownerToken, { ...ground });
    const res = await call('PATCH', `/api/agent/marketing/content/${item.id}`, {
      token: acct.agentKey,
      body: { before_after_grid_id: null },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.before_after_grid_id, null);
    assert.equal(res.body.before_after_grid, null);
    assert.equal(res.body.avatar_id, ground.avatar_id);
  });

  it('journey_stage and target_keyword take 255 characters and refuse 256', async () => {
    const ok = await createItem(acct.ownerToken, { journey_stage: 's'.repeat(255), target_keyword: 'k'.repeat(255) });
    assert.equal(ok.journey_stage.length, 255);
    assert.equal(ok.target_keyword.length, 255);
    const before = await rowCounts(acct.accountId);
    for (const field of ['journey_stage', 'target_keyword']) {
      assertFieldError(
        await call('POST', '/api/marketing/content', { token: acct.ownerToken, body: { title: 't', [field]: 'x'.repeat(256) } }),
        `body.${field}`,
      );
      assertFieldError(
        await call('PUT', `/api/marketing/content/${ok.id}`, { token: acct.ownerToken, body: { [field]: 'x'.repeat(256) } }),
        `body.${field}`,
      );
    }
    assertFieldError(
      await call('PATCH', `/api/agent/marketing/content/${ok.id}`, {
        token: acct.agentKey,
        body: { settings: { target_keyword: 'x'.repeat(256) } },
      }),
      'body.settings.target_keyword',
    );
    assert.deepEqual(await rowCounts(acct.accountId), before);
  });

  it('a grounding object deleted later reads as null with its id cleared', async () => {
    const avatar = await insertAvatar(acct.accountId);
    const item = await createItem(acct.ownerToken, { avatar_id: avatar.id });
    await harness().db('customer_avatars').where({ id: avatar.id }).delete();
    const got = await call('GET', `/api/marketing/content/${item.id}`, { token: acct.ownerToken });
    assert.equal(got.body.avatar_id, null);
    assert.equal(got.body.customer_avatar, null);
  });
});
