import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import {
  countRows,
  createItem,
  publishArticles,
  researchItem,
  researchTopic,
  startResearchWorld,
  suffix,
  type ResearchWorld,
} from './researchKit';

describe('research Idempotency-Key: one key is one request of one account', function () {
  this.timeout(120_000);
  let world: ResearchWorld;
  let owner: TestAccount;

  before(async () => {
    world = await startResearchWorld();
    owner = await newAccount('Key Scope Co');
  });
  after(async () => world?.stop());

  it('the same Idempotency-Key on another item is 409 idempotency_key_reused and nothing runs', async () => {
    const keyword = `loft hatch draught ${suffix()}`;
    const { paths } = publishArticles(world, keyword, 2);
    const first = await createItem(world, owner.ownerToken, { title: 'Loft hatches', target_keyword: keyword });
    const other = await createItem(world, owner.ownerToken, { title: 'Loft hatches again', target_keyword: keyword });
    const key = `scope-${suffix()}`;

    const ran = await researchItem(world, owner.ownerToken, first, { key });
    assert.equal(ran.status, 201, ran.text);
    const hits = paths.map((p) => world.pages.hits(p));

    const reused = await researchItem(world, owner.ownerToken, other, { key });
    assert.equal(reused.status, 409, reused.text);
    assert.equal(reused.body.code, 'idempotency_key_reused');
    assert.deepEqual(
      paths.map((p) => world.pages.hits(p)),
      hits,
      'no page read',
    );
    assert.equal(await countRows('kb_artifacts', { account_id: owner.accountId, content_id: other }), 0, 'no artifact for the other item');
    const untouched = await world.app.call('GET', `/api/marketing/content/${other}/research`, { token: owner.ownerToken });
    assert.deepEqual(untouched.body, { research: null, artifact: null });

    const replay = await researchItem(world, owner.ownerToken, first, { key });
    assert.equal(replay.status, 201, replay.text);
    assert.equal(replay.body.run_id, ran.body.run_id);
  });

  it('the same Idempotency-Key on item research and topic research is 409 idempotency_key_reused', async () => {
    const keyword = `cavity wall fill ${suffix()}`;
    publishArticles(world, keyword, 1);
    const id = await createItem(world, owner.ownerToken, { title: 'Cavity walls', target_keyword: keyword });
    const agentKey = await newAgentKey(owner.accountId, ['marketing.content:create']);
    const key = `cross-${suffix()}`;

    const ran = await researchItem(world, owner.ownerToken, id, { key, body: { max_sources: 1 } });
    assert.equal(ran.status, 201, ran.text);
    const topic = await researchTopic(world, agentKey, { topic: 'Cavity walls', keyword, max_sources: 1 }, key);
    assert.equal(topic.status, 409, topic.text);
    assert.equal(topic.body.code, 'idempotency_key_reused');
  });

  it("the same Idempotency-Key on the item's agent twin route is 409 idempotency_key_reused", async () => {
    const keyword = `sash window sealing ${suffix()}`;
    publishArticles(world, keyword, 1);
    const id = await createItem(world, owner.ownerToken, { title: 'Sash windows', target_keyword: keyword });
    const agentKey = await newAgentKey(owner.accountId, ['marketing.content:update']);
    const key = `twin-${suffix()}`;

    const ran = await researchItem(world, owner.ownerToken, id, { key, body: { max_sources: 1 } });
    assert.equal(ran.status, 201, ran.text);
    const twin = await world.app.call('POST', `/api/agent/marketing/content/${id}/research`, {
      token: agentKey,
      body: { max_sources: 1 },
      headers: { 'Idempotency-Key': key },
    });
    assert.equal(twin.status, 409, twin.text);
    assert.equal(twin.body.code, 'idempotency_key_reused');
  });

  it('another account may use the same Idempotency-Key: its own run', async () => {
    const keyword = `solar diverter ${suffix()}`;
    publishArticles(world, keyword, 1);
    const stranger = await newAccount('Key Scope Stranger');
    const key = `shared-${suffix()}`;
    const mine = await researchItem(
      world,
      owner.ownerToken,
      await createItem(world, owner.ownerToken, { title: 'Diverters', target_keyword: keyword }),
      { key, body: { max_sources: 1 } },
    );
    const theirs = await researchItem(
      world,
      stranger.ownerToken,
      await createItem(world, stranger.ownerToken, { title: 'Diverters', target_keyword: keyword }),
      { key, body: { max_sources: 1 } },
    );
    assert.equal(mine.status, 201, mine.text);
    assert.equal(theirs.status, 201, theirs.text);
    assert.notEqual(theirs.body.run_id, mine.body.run_id);
  });
});
