import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { assertFieldError } from '../../crm/fixtures';
import { createItem, MISSING_ID, uploadPng } from './fixtures';

const patchAgent = (token: string, assetId: string, body: unknown) =>
  call('PATCH', `/api/agent/marketing/media/${assetId}`, { token, body });
const list = (token: string, query = '', agent = false) =>
  call('GET', `${agent ? '/api/agent' : '/api'}/marketing/media${query}`, { token });

describe('marketing media library', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let itemId: string;
  let editor: string;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    itemId = await createItem(acct.accountId);
    editor = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:update']);
  });

  it('PATCH /api/agent/marketing/media/{assetId} adds brand_reference to the tags, keeping the others, and answers the asset', async () => {
    const asset = await uploadPng(acct.ownerToken, itemId);
    const res = await patchAgent(editor, asset.id, { tags: ['  brand_reference ', 'brand_reference', 'hero'] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.tags, ['content_image', `content:${itemId}`, 'brand_reference', 'hero']);
    assert.equal(res.body.id, asset.id);
    const again = await patchAgent(editor, asset.id, { tags: ['brand_reference'] });
    assert.deepEqual(again.body.tags, res.body.tags, 'adding a tag twice keeps one');
  });

  it('remove_tags removes tags and alt_text sets or clears the alt text; an empty body changes nothing', async () => {
    const asset = await uploadPng(acct.ownerToken, itemId, { alt_text: 'old' });
    const res = await patchAgent(editor, asset.id, { remove_tags: ['content_image', 'never-there'], alt_text: 'A logo on blue' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.tags, res.body.alt_text], [[`content:${itemId}`], 'A logo on blue']);
    const cleared = await patchAgent(editor, asset.id, { alt_text: null });
    assert.equal(cleared.body.alt_text, null);
    const same = await patchAgent(editor, asset.id, {});
    assert.deepEqual([same.status, same.body.tags, same.body.alt_text], [200, [`content:${itemId}`], null]);
  });

  it('tags are checked: empty, over 100 characters, over 50, added and removed at once, or over 50 on the asset are 400', async () => {
    const asset = await uploadPng(acct.ownerToken, itemId);
    assertFieldError(await patchAgent(editor, asset.id, { tags: ['  '] }), 'body.tags.0');
    assertFieldError(await patchAgent(editor, asset.id, { tags: ['x'.repeat(101)] }), 'body.tags.0');
    assertFieldError(await patchAgent(editor, asset.id, { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), 'body.tags');
    assertFieldError(await patchAgent(editor, asset.id, { tags: ['a'], remove_tags: ['a'] }), 'body.remove_tags');
    assertFieldError(await patchAgent(editor, asset.id, { tags: Array.from({ length: 49 }, (_, i) => `t${i}`) }), 'body.tags');
    assertFieldError(await patchAgent(editor, asset.id, { labels: ['a'] }), 'body');
    const unchanged = await call('GET', `/api/marketing/media/${asset.id}`, { token: acct.ownerToken });
    assert.deepEqual(unchanged.body.tags, ['content_image', `content:${itemId}`]);
  });

  it('the dashboard twin PATCH /api/marketing/media/{assetId} tags with a session token', async () => {
    const asset = await uploadPng(acct.ownerToken, itemId);
    const res = await call('PATCH', `/api/marketing/media/${asset.id}`, { token: acct.ownerToken, body: { tags: ['brand_reference'] } });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.tags.includes('brand_reference'));
  });

  it('an asset of another account, a missing one or a malformed id answers 404 media_asset_not_found and is not changed', async () => {
    const theirs = await uploadPng(other.ownerToken, await createItem(other.accountId));
    for (const id of [theirs.id, MISSING_ID, 'not-a-uuid']) {
      const patched = await patchAgent(editor, id, { tags: ['brand_reference'] });
      assert.deepEqual([patched.status, patched.body.code], [404, 'media_asset_not_found'], id);
      const got = await call('GET', `/api/marketing/media/${id}`, { token: acct.ownerToken });
      assert.deepEqual([got.status, got.body.code], [404, 'media_asset_not_found'], id);
    }
    const still = await call('GET', `/api/marketing/media/${theirs.id}`, { token: other.ownerToken });
    assert.deepEqual(still.body.tags, theirs.tags);
  });

  it('a read-only agent key cannot tag (403) but can list; a key without marketing.content:update is 403', async () => {
    const asset = await uploadPng(acct.ownerToken, itemId);
    const readOnly = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:update'], true);
    assert.deepEqual((await patchAgent(readOnly, asset.id, { tags: ['x'] })).body.code, 'read_only_key');
    const reader = await newAgentKey(acct.accountId, ['marketing.content:read']);
    assert.deepEqual((await patchAgent(reader, asset.id, { tags: ['x'] })).body.code, 'missing_permission');
    assert.equal((await list(readOnly, '', true)).status, 200);
  });

  describe('listing', () => {
    let acctL: TestAccount;
    let item1: string;
    let ids: string[];
    before(async () => {
      acctL = await newAccount();
      item1 = await createItem(acctL.accountId);
      const item2 = await createItem(acctL.accountId);
      ids = [];
      for (const item of [item1, item1, item2]) ids.push((await uploadPng(acctL.ownerToken, item)).id);
      await call('PATCH', `/api/marketing/media/${ids[0]}`, { token: acctL.ownerToken, body: { tags: ['brand_reference'] } });
      await uploadPng(other.ownerToken, await createItem(other.accountId));
    });

    it("lists the account's assets newest first as { data, total, page, limit }, without other accounts' assets", async () => {
      const res = await list(acctL.ownerToken);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.data.map((a: { id: string }) => a.id),
        [...ids].reverse(),
      );
      assert.deepEqual([res.body.total, res.body.page, res.body.limit], [3, 1, 25]);
      const page2 = await list(acctL.ownerToken, '?limit=2&page=2');
      assert.deepEqual([page2.body.data.map((a: { id: string }) => a.id), page2.body.total], [[ids[0]], 3]);
    });

    it('tag filters on an exact tag (brand_reference lists the tagged asset); content_id lists the images attached to an item', async () => {
      const key = await newAgentKey(acctL.accountId, ['marketing.content:read']);
      const brand = await list(key, '?tag=brand_reference', true);
      assert.deepEqual(
        brand.body.data.map((a: { id: string }) => a.id),
        [ids[0]],
      );
      const byItem = await list(acctL.ownerToken, `?content_id=${item1}`);
      assert.deepEqual(
        byItem.body.data.map((a: { id: string }) => a.id),
        [ids[1], ids[0]],
      );
      const byTag = await list(acctL.ownerToken, `?tag=${encodeURIComponent(`content:${item1}`)}`);
      assert.equal(byTag.body.total, 2);
    });

    it('a malformed content_id or limit is 400', async () => {
      assertFieldError(await list(acctL.ownerToken, '?content_id=abc'), 'query.content_id');
      assertFieldError(await list(acctL.ownerToken, '?limit=500'), 'query.limit');
    });
  });
});
