import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { newProjectId } from '../../helpers/projects';
import { MISSING_ID, pathOf } from '../media/fixtures';
import { getProfile, newAsset, putGuide } from './fixtures';

describe('brand image profile (GET /api/agent/marketing/brand/image-profile)', () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount('Profile Co');
  });

  it('an account with no guide answers an empty but valid profile', async () => {
    const fresh = await newAccount('Blank Co');
    const res = await getProfile(fresh.agentKey);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { project_id: null, prompt_block: '', avoid_list: [], reference_images: [] });
  });

  it('profile ordering: logo first (role logo, id logo_primary), then at most three brand_reference images newest first; an untagged image never appears', async () => {
    const logo = await newAsset(acct.ownerToken, acct.accountId, ['brand_reference'], 'Our logo');
    const oldest = await newAsset(acct.ownerToken, acct.accountId, ['brand_reference']);
    const b2 = await newAsset(acct.ownerToken, acct.accountId, ['brand_reference'], 'Team at work');
    const untagged = await newAsset(acct.ownerToken, acct.accountId, ['hero']);
    const b3 = await newAsset(acct.ownerToken, acct.accountId, ['brand_reference']);
    const newest = await newAsset(acct.ownerToken, acct.accountId, ['brand_reference']);
    await putGuide(acct.ownerToken, { primary_logo_asset_id: logo.id });

    const res = await getProfile(acct.agentKey);
    assert.equal(res.status, 200, res.text);
    const refs = res.body.reference_images;
    assert.deepEqual(
      refs.map((r: { id: string; role: string }) => [r.id, r.role]),
      [
        ['logo_primary', 'logo'],
        [newest.id, 'brand'],
        [b3.id, 'brand'],
        [b2.id, 'brand'],
      ],
      'the logo asset is not listed twice, and the oldest tagged image falls past three',
    );
    assert.equal(pathOf(refs[0].url), pathOf(logo.url));
    assert.equal(refs[0].alt, 'Our logo');
    assert.equal(refs[3].alt, 'Team at work');
    assert.ok(!('alt' in refs[1]), 'no alt when the asset has no alt text');
    for (const r of refs) assert.match(pathOf(r.url), /^\/media\/[A-Za-z0-9_-]{43}\/[^/]+$/);
    const ids = JSON.stringify(res.body);
    assert.ok(!ids.includes(untagged.id) && !ids.includes(oldest.id));
    const file = await fetch(refs[1].url);
    assert.equal(file.status, 200, 'the url serves the image');
  });

  it("project guide wins: each field the project sets replaces the account's, unset fields come from the account's guide", async () => {
    const accountLogo = await newAsset(acct.ownerToken, acct.accountId);
    const projectLogo = await newAsset(acct.ownerToken, acct.accountId);
    await putGuide(acct.ownerToken, {
      voice: 'Friendly and plain.',
      visual_style: 'Soft daylight photography.',
      colors: [{ name: 'Teal', hex: '#008080' }],
      avoid: ['text in images'],
      primary_logo_asset_id: accountLogo.id,
    });
    const projectId = await newProjectId(acct.accountId);
    await putGuide(
      acct.ownerToken,
      { visual_style: 'Flat vector illustration.', avoid: ['photos of people'], primary_logo_asset_id: projectLogo.id },
      projectId,
    );

    const res = await getProfile(acct.agentKey, projectId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.project_id, projectId);
    assert.match(res.body.prompt_block, /Flat vector illustration\./);
    assert.doesNotMatch(res.body.prompt_block, /Soft daylight/);
    assert.match(res.body.prompt_block, /Friendly and plain\./, 'voice comes from the account guide');
    assert.match(res.body.prompt_block, /Teal \(#008080\)/, 'colours come from the account guide');
    assert.deepEqual(res.body.avoid_list, ['photos of people']);
    assert.equal(pathOf(res.body.reference_images[0].url), pathOf(projectLogo.url));

    const accountOnly = await getProfile(acct.agentKey);
    assert.match(accountOnly.body.prompt_block, /Soft daylight photography\./);
    assert.deepEqual(accountOnly.body.avoid_list, ['text in images']);
    assert.equal(pathOf(accountOnly.body.reference_images[0].url), pathOf(accountLogo.url));
    const emptyParam = await getProfile(acct.agentKey, '');
    assert.deepEqual(emptyParam.body, accountOnly.body, 'an empty project_id reads as absent');
  });

  it('prompt_block is plain sentences (no markdown), avoid_list from the guide', async () => {
    const fresh = await newAccount('Markdown Co');
    await putGuide(fresh.ownerToken, {
      voice: '## Voice\n**Warm** and _direct_\n- short sentences\n- no `jargon`, see [our guide](https://example.test/guide)',
      visual_style: '> Clean *editorial* photography!\n1. natural light',
      colors: [{ name: '**Brand** blue', hex: '#0055ff' }, { hex: '#222222' }, { name: 'Sand', hex: '#eeddcc' }],
      avoid: ['watermarks', 'fake screenshots'],
    });
    const res = await getProfile(fresh.agentKey);
    assert.equal(res.status, 200, res.text);
    const block: string = res.body.prompt_block;
    assert.doesNotMatch(block, /[*_`>[\]\n]|#(?![0-9a-f]{6}\b)|\(https?:/, block);
    assert.equal(
      block,
      'Visual style: Clean editorial photography! Natural light. ' +
        "The images should convey the brand's voice: Voice. Warm and direct. Short sentences. No jargon, see our guide. " +
        'Use the brand colours Brand blue (#0055ff), #222222 and Sand (#eeddcc).',
    );
    assert.deepEqual(res.body.avoid_list, ['watermarks', 'fake screenshots']);
    assert.doesNotMatch(block, /watermarks/, 'the avoid list is given apart, not repeated in the block');
  });

  it("other account's project is 404 project_not_found (an unknown or malformed id too)", async () => {
    const other = await newAccount('Someone Else');
    const theirs = await newProjectId(other.accountId);
    for (const id of [theirs, MISSING_ID, 'not-a-uuid']) {
      const res = await getProfile(acct.agentKey, id);
      assert.deepEqual([res.status, res.body.code], [404, 'project_not_found'], id);
    }
  });

  it('agent key without read permission refused (403 missing_permission); a read-only key with it reads', async () => {
    const writer = await newAgentKey(acct.accountId, ['marketing.content:update', 'marketing.content:create']);
    const res = await getProfile(writer);
    assert.deepEqual([res.status, res.body.code], [403, 'missing_permission']);
    const readOnly = await newAgentKey(acct.accountId, ['marketing.content:read'], true);
    assert.equal((await getProfile(readOnly)).status, 200);
  });
});
