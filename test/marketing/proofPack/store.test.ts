import assert from 'node:assert/strict';
import { getArtifact, listArtifacts } from '../../../src/knowledge/service';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newItem, seedProof, storePack, withConfig } from './fixtures';

describe('proof pack stored on an item (POST /api/marketing/content/{id}/proof-pack)', () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount('Store Co');
  });

  it('stores the pack as the proof_pack artifact of the item, and a second call refreshes it instead of adding one', async () => {
    const { gridId } = await seedProof(acct.accountId);
    const id = await newItem(acct.accountId, { before_after_grid_id: gridId });
    const first = await withConfig({ MODEL_API_KEY: undefined }, () => storePack(acct.ownerToken, id, { kinds: ['result'] }));
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.created, true);
    assert.deepEqual(
      first.body.pack.data.map((e: { kind: string }) => e.kind),
      ['result'],
    );
    const second = await withConfig({ MODEL_API_KEY: undefined }, () =>
      storePack(acct.ownerToken, id, { kinds: ['testimonial'], limit: 1 }),
    );
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.created, false);
    assert.equal(second.body.artifact_id, first.body.artifact_id);

    const artifact = await getArtifact(harness().db, acct.accountId, first.body.artifact_id);
    assert.equal(artifact?.artifact_type, 'proof_pack');
    assert.equal(artifact?.content_id, id);
    assert.deepEqual(artifact?.content_json.data, second.body.pack.data);
    const all = await listArtifacts(harness().db, acct.accountId, { artifactType: 'proof_pack', contentId: id, page: 1, limit: 10 });
    assert.equal(all.total, 1);
  });

  it('a stored pack is not read back as knowledge by the next pack', async () => {
    const id = await newItem(acct.accountId, { title: 'Invoicing hours' });
    await withConfig({ MODEL_API_KEY: undefined }, () => storePack(acct.ownerToken, id));
    const again = await withConfig({ MODEL_API_KEY: undefined }, () =>
      storePack(acct.ownerToken, id, { kinds: ['knowledge'], q: 'invoicing' }),
    );
    assert.deepEqual(again.body.pack.data, []);
  });

  it("404 content_not_found for another account's, an unknown or a malformed item; nothing is stored", async () => {
    const stranger = await newAccount('Store Stranger');
    const theirs = await newItem(stranger.accountId);
    for (const id of [theirs, 'nope', '00000000-0000-4000-8000-000000000000']) {
      const res = await storePack(acct.ownerToken, id);
      assert.equal(res.status, 404, id);
      assert.equal(res.body.code, 'content_not_found');
    }
    assert.equal((await listArtifacts(harness().db, stranger.accountId, { page: 1, limit: 10 })).total, 0);
  });

  it('the body is validated field by field', async () => {
    const id = await newItem(acct.accountId);
    for (const [body, path] of [
      [{ limit: 0 }, 'body.limit'],
      [{ limit: 1.5 }, 'body.limit'],
      [{ kinds: [] }, 'body.kinds'],
      [{ kinds: ['gossip'] }, 'body.kinds.0'],
      [{ kinds: 'result' }, 'body.kinds'],
      [{ avatar_id: 'x' }, 'body.avatar_id'],
      [{ content_id: id }, 'body'],
    ] as const) {
      const res = await storePack(acct.ownerToken, id, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(
        res.body.errors.some((e: { path: string }) => e.path === path),
        res.text,
      );
    }
  });

  it('the agent twin needs marketing.content:update', async () => {
    const id = await newItem(acct.accountId);
    const writer = await newAgentKey(acct.accountId, ['marketing.content:update']);
    const res = await withConfig({ MODEL_API_KEY: undefined }, () => storePack(writer, id, {}, true));
    assert.equal(res.status, 201, res.text);
    const reader = await newAgentKey(acct.accountId, ['marketing.content:read']);
    assert.equal((await storePack(reader, id, {}, true)).status, 403);
  });
});
