import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { newProjectId } from '../../helpers/projects';
import { harness } from '../../helpers/harness';
import { assertFieldError } from '../../crm/fixtures';
import { MISSING_ID } from '../media/fixtures';
import { getGuide, newAsset, putGuide } from './fixtures';

const FULL = {
  voice: 'Warm, direct, no jargon.',
  visual_style: 'Bright natural light, real people at work.',
  colors: [{ name: 'Navy', hex: '#1A2B3C' }, { hex: '#ffffff' }],
  avoid: ['stock handshakes', 'clip art', 'stock handshakes'],
};

describe('brand guides (GET|PUT /api/marketing/brand and /api/marketing/projects/{projectId}/brand)', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount('Brand Co'), newAccount('Other Brand Co')]);
  });

  it('a guide never saved answers 200 with every field unset and updated_at null', async () => {
    const fresh = await newAccount('Fresh Co');
    const res = await getGuide(fresh.ownerToken);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      project_id: null,
      voice: null,
      visual_style: null,
      colors: [],
      avoid: [],
      primary_logo_asset_id: null,
      updated_at: null,
    });
  });

  it('account guide round trip: PUT answers the guide (hex lowercased, duplicates dropped) and GET, session or agent, answers the same', async () => {
    const logo = await newAsset(acct.ownerToken, acct.accountId);
    const put = await putGuide(acct.ownerToken, { ...FULL, primary_logo_asset_id: logo.id });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.colors, [
      { name: 'Navy', hex: '#1a2b3c' },
      { name: null, hex: '#ffffff' },
    ]);
    assert.deepEqual(put.body.avoid, ['stock handshakes', 'clip art']);
    assert.equal(put.body.primary_logo_asset_id, logo.id);
    assert.equal(put.body.project_id, null);
    assert.ok(put.body.updated_at);
    assert.deepEqual((await getGuide(acct.ownerToken)).body, put.body);
    assert.deepEqual((await getGuide(acct.agentKey, undefined, true)).body, put.body);
  });

  it('PUT replaces the whole guide: a field left out is cleared, and the agent twin writes the same guide', async () => {
    await putGuide(acct.ownerToken, FULL);
    const res = await putGuide(acct.agentKey, { voice: 'Only a voice now.' }, undefined, true);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.voice, res.body.visual_style, res.body.colors, res.body.avoid], ['Only a voice now.', null, [], []]);
    const rows = await harness().db('brand_guides').where({ account_id: acct.accountId });
    assert.equal(rows.length, 1, 'one account guide, replaced in place');
  });

  it('limits: voice or visual_style over 2,000 characters, over 12 colours, a hex not #rrggbb, over 30 avoid entries or one over 200 characters are 400', async () => {
    const t = acct.ownerToken;
    assertFieldError(await putGuide(t, { voice: 'x'.repeat(2001) }), 'body.voice');
    assertFieldError(await putGuide(t, { visual_style: 'x'.repeat(2001) }), 'body.visual_style');
    assertFieldError(await putGuide(t, { colors: Array.from({ length: 13 }, () => ({ hex: '#000000' })) }), 'body.colors');
    assertFieldError(await putGuide(t, { colors: [{ hex: 'red' }] }), 'body.colors.0.hex');
    assertFieldError(await putGuide(t, { colors: [{ hex: '#fff' }] }), 'body.colors.0.hex');
    assertFieldError(await putGuide(t, { avoid: Array.from({ length: 31 }, (_, i) => `a${i}`) }), 'body.avoid');
    assertFieldError(await putGuide(t, { avoid: ['y'.repeat(201)] }), 'body.avoid.0');
    assertFieldError(await putGuide(t, { tone: 'x' }), 'body');
    assertFieldError(await putGuide(t, { primary_logo_asset_id: 'not-a-uuid' }), 'body.primary_logo_asset_id');
    const ok = await putGuide(t, { voice: 'v'.repeat(2000), avoid: Array.from({ length: 30 }, () => 'z'.repeat(200)) });
    assert.equal(ok.status, 200, 'the limits themselves are accepted');
  });

  it("logo of another account's asset is 400 invalid_reference (an unknown asset too) and nothing is written", async () => {
    await putGuide(acct.ownerToken, FULL);
    const theirs = await newAsset(other.ownerToken, other.accountId);
    for (const id of [theirs.id, MISSING_ID]) {
      const res = await putGuide(acct.ownerToken, { voice: 'Changed', primary_logo_asset_id: id });
      assert.deepEqual([res.status, res.body.code, res.body.field], [400, 'invalid_reference', 'primary_logo_asset_id'], res.text);
    }
    assert.equal((await getGuide(acct.ownerToken)).body.voice, FULL.voice);
  });

  it("a project's own guide is stored apart from the account's, and answers its project_id", async () => {
    const projectId = await newProjectId(acct.accountId);
    assert.deepEqual((await getGuide(acct.ownerToken, projectId)).body.updated_at, null);
    const put = await putGuide(acct.ownerToken, { visual_style: 'Line drawings.' }, projectId);
    assert.equal(put.status, 200, put.text);
    assert.deepEqual([put.body.project_id, put.body.visual_style, put.body.voice], [projectId, 'Line drawings.', null]);
    assert.deepEqual((await getGuide(acct.agentKey, projectId, true)).body, put.body);
    assert.notEqual((await getGuide(acct.ownerToken)).body.visual_style, 'Line drawings.');
  });

  it("other account's project is 404 project_not_found (an unknown or malformed id too) and nothing is written", async () => {
    const theirs = await newProjectId(other.accountId);
    for (const id of [theirs, MISSING_ID, 'not-a-uuid']) {
      const get = await getGuide(acct.ownerToken, id);
      assert.deepEqual([get.status, get.body.code], [404, 'project_not_found'], id);
      const put = await putGuide(acct.ownerToken, { voice: 'Taken over' }, id);
      assert.deepEqual([put.status, put.body.code], [404, 'project_not_found'], id);
    }
    assert.equal(await harness().db('brand_guides').where({ project_id: theirs }).first(), undefined);
  });

  it('an agent key without marketing.content:update, or a read-only key, cannot PUT (403); a key without read cannot GET', async () => {
    const reader = await newAgentKey(acct.accountId, ['marketing.content:read']);
    assert.equal((await putGuide(reader, FULL, undefined, true)).body.code, 'missing_permission');
    const readOnly = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:update'], true);
    assert.equal((await putGuide(readOnly, FULL, undefined, true)).body.code, 'read_only_key');
    const crmOnly = await newAgentKey(acct.accountId, ['crm:read']);
    assert.equal((await getGuide(crmOnly, undefined, true)).body.code, 'missing_permission');
    assert.equal((await getGuide(reader, undefined, true)).status, 200);
  });
});
