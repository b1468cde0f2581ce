import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { assertFieldError } from '../../crm/fixtures';
import { createItem, MISSING_ID, pathOf, uploadPng } from './fixtures';

const detach = (token: string, contentId: string, body: unknown, agent = false) =>
  call('POST', `${agent ? '/api/agent' : '/api'}/marketing/content/${contentId}/delete-image`, { token, body });
const isAttached = async (contentId: string, assetId: string) =>
  Boolean(await harness().db('content_item_images').where({ content_id: contentId, asset_id: assetId }).first());

describe('marketing content: delete-image', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let itemId: string;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    itemId = await createItem(acct.accountId);
  });

  it('delete-image detaches the image; the asset stays in the library and its url keeps serving', async () => {
    const asset = await uploadPng(acct.ownerToken, itemId);
    const res = await detach(acct.ownerToken, itemId, { asset_id: asset.id });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { content_id: itemId, asset_id: asset.id, detached: true });
    assert.equal(await isAttached(itemId, asset.id), false);
    const kept = await call('GET', `/api/marketing/media/${asset.id}`, { token: acct.ownerToken });
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual(kept.body.tags, ['content_image', `content:${itemId}`]);
    assert.equal((await fetch(`${harness().baseUrl}${pathOf(asset.url)}`)).status, 200);
  });

  it('detaching an image that is not attached (again, or never to this item) is 404 image_not_attached', async () => {
    const asset = await uploadPng(acct.ownerToken, itemId);
    const otherItem = await createItem(acct.accountId);
    assert.equal((await detach(acct.ownerToken, itemId, { asset_id: asset.id })).status, 200);
    for (const [contentId, assetId] of [
      [itemId, asset.id],
      [otherItem, asset.id],
      [itemId, MISSING_ID],
    ]) {
      const res = await detach(acct.ownerToken, contentId, { asset_id: assetId });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'image_not_attached');
    }
  });

  it('an item or asset of another account answers 404 and detaches nothing', async () => {
    const theirItem = await createItem(other.accountId);
    const theirAsset = await uploadPng(other.ownerToken, theirItem);
    const mine = await uploadPng(acct.ownerToken, itemId);
    const crossItem = await detach(acct.ownerToken, theirItem, { asset_id: theirAsset.id });
    assert.deepEqual([crossItem.status, crossItem.body.code], [404, 'content_not_found']);
    const crossAsset = await detach(acct.ownerToken, itemId, { asset_id: theirAsset.id });
    assert.deepEqual([crossAsset.status, crossAsset.body.code], [404, 'image_not_attached']);
    const malformed = await detach(acct.ownerToken, 'nope', { asset_id: mine.id });
    assert.deepEqual([malformed.status, malformed.body.code], [404, 'content_not_found']);
    assert.equal(await isAttached(theirItem, theirAsset.id), true);
    assert.equal(await isAttached(itemId, mine.id), true);
  });

  it('asset_id is required and must be a uuid; unknown fields are 400', async () => {
    assertFieldError(await detach(acct.ownerToken, itemId, {}), 'body.asset_id');
    assertFieldError(await detach(acct.ownerToken, itemId, { asset_id: '42' }), 'body.asset_id');
    const extra = await detach(acct.ownerToken, itemId, { asset_id: MISSING_ID, purge: true });
    assert.deepEqual([extra.status, extra.body.code], [400, 'validation_failed']);
  });

  it('the agent twin detaches with marketing.content:update; a read-only key is 403', async () => {
    const asset = await uploadPng(acct.ownerToken, itemId);
    const readOnly = await newAgentKey(acct.accountId, ['marketing.content:update'], true);
    const refused = await detach(readOnly, itemId, { asset_id: asset.id }, true);
    assert.deepEqual([refused.status, refused.body.code], [403, 'read_only_key']);
    const key = await newAgentKey(acct.accountId, ['marketing.content:update']);
    assert.equal((await detach(key, itemId, { asset_id: asset.id }, true)).status, 200);
    assert.equal(await isAttached(itemId, asset.id), false);
  });
});
