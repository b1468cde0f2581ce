import assert from 'node:assert/strict';
import { TagsKey } from '../../src/temporal/searchAttributes';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { createItem, publishArticles, researchItem, startResearchWorld, suffix, type ResearchWorld } from '../research/researchKit';
import { eventually, jobUrl } from './jobTestKit';

/** A research run is the job-starting route these tests drive; every such route takes the same three fields. */
describe('job tags, metadata and callback_url on job-starting routes', function () {
  this.timeout(120_000);
  let world: ResearchWorld;
  let owner: TestAccount;
  let itemId: string;

  before(async () => {
    world = await startResearchWorld();
    owner = await newAccount('Tagged Jobs Co');
    const keyword = `tagged heat pumps ${suffix()}`;
    publishArticles(world, keyword, 1);
    itemId = await createItem(world, owner.ownerToken, { title: 'Tagged research', target_keyword: keyword });
    const secret = await world.app.call('POST', '/api/job-callbacks/secret', { token: owner.ownerToken });
    assert.equal(secret.status, 201, secret.text);
  });
  after(async () => world?.stop());

  const list = (query: string) => world.app.call('GET', `/api/jobs?${query}`, { token: owner.ownerToken });

  it('a job started with tags and metadata is listed by each of its tags (not by another) and shows them', async () => {
    const tag = `campaign-${suffix()}`;
    const metadata = { order_id: 'ord_123', 'source.system': 'crm sync' };
    const run = await researchItem(world, owner.ownerToken, itemId, {
      body: { max_sources: 1, tags: [tag, 'research batch'], metadata, callback_url: 'https://hooks.example.com/jobs?token=abc' },
    });
    assert.equal(run.status, 201, run.text);
    const jobId: string = run.body.run_id;

    // Visibility is eventually consistent: the run shows up in the listing shortly after it started.
    const listed = await eventually(
      () => list(`tag=${encodeURIComponent(tag)}`),
      (res) => res.status === 200 && res.body.data.length === 1,
      10_000,
      'the tagged job in the listing',
    );
    assert.equal(listed.body.data[0].id, jobId);
    assert.deepEqual(listed.body.data[0].tags, [tag, 'research batch']);
    assert.deepEqual(listed.body.data[0].metadata, metadata);
    const byOther = await list(`tag=${encodeURIComponent('research batch')}`);
    assert.ok(
      byOther.body.data.some((job: { id: string }) => job.id === jobId),
      'listed by its second tag too',
    );
    const untagged = await list(`tag=${encodeURIComponent(`other-${suffix()}`)}`);
    assert.equal(untagged.status, 200, untagged.text);
    assert.deepEqual(untagged.body.data, []);

    const job = await world.app.call('GET', jobUrl(jobId), { token: owner.ownerToken });
    assert.equal(job.status, 200, job.text);
    assert.deepEqual(job.body.tags, [tag, 'research batch']);
    assert.deepEqual(job.body.metadata, metadata);
    assert.equal(job.body.replay_of, null);
    assert.ok(!job.text.includes('token=abc'), 'the callback URL (it may carry a token) is not shown on the job');

    // The Temporal UI's summary and details of the run; the callback URL stays in the memo only.
    const described = await harness().client.workflow.getHandle(jobId).describe();
    assert.equal(await described.staticSummary(), `research · tags: ${tag}, research batch`);
    const details = (await described.staticDetails()) ?? '';
    assert.ok(details.includes('`order_id`: ord_123') && details.includes('`source.system`: crm sync'), details);
    assert.ok(!details.includes('token=abc'), details);
    assert.equal(described.memo?.callbackUrl, 'https://hooks.example.com/jobs?token=abc');
    assert.deepEqual(described.typedSearchAttributes.get(TagsKey), [tag, 'research batch']);
  });

  it('a job started without them shows no tags, empty metadata and no replay_of', async () => {
    const run = await researchItem(world, owner.ownerToken, itemId, { body: { max_sources: 1 } });
    assert.equal(run.status, 201, run.text);
    const job = await world.app.call('GET', jobUrl(run.body.run_id), { token: owner.ownerToken });
    assert.deepEqual([job.body.tags, job.body.metadata, job.body.replay_of], [[], {}, null]);
  });

  it('the tags and metadata are part of an idempotent request: the same key with other tags is 409', async () => {
    const key = `tags-${suffix()}`;
    const first = await researchItem(world, owner.ownerToken, itemId, { key, body: { max_sources: 1, tags: ['a'] } });
    assert.equal(first.status, 201, first.text);
    const same = await researchItem(world, owner.ownerToken, itemId, { key, body: { max_sources: 1, tags: ['a'] } });
    assert.equal(same.status, 201, same.text);
    const other = await researchItem(world, owner.ownerToken, itemId, { key, body: { max_sources: 1, tags: ['b'] } });
    assert.equal(other.status, 409, other.text);
    assert.equal(other.body.code, 'idempotency_key_reused');
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['11 tags', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'body.tags'],
    ['a 129-character tag', { tags: ['x'.repeat(129)] }, 'body.tags.0'],
    ['a repeated tag', { tags: ['a', 'a'] }, 'body.tags'],
    ['21 metadata keys', { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }, 'body.metadata'],
    ['a 501-character metadata value', { metadata: { k: 'v'.repeat(501) } }, 'body.metadata.k'],
    [
      'metadata over 4 KiB',
      { metadata: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'v'.repeat(450)])) },
      'body.metadata',
    ],
    ['a metadata key with a space', { metadata: { 'bad key': 'v' } }, 'body.metadata'],
    ['a metadata value that is not a string', { metadata: { n: 1 } }, 'body.metadata.n'],
    ['a relative callback_url', { callback_url: '/hooks/jobs' }, 'body.callback_url'],
    ['an http callback_url on a public host', { callback_url: 'http://hooks.example.com/jobs' }, 'body.callback_url'],
    ['a callback_url with credentials', { callback_url: 'https://user:pw@hooks.example.com/jobs' }, 'body.callback_url'],
    ['a callback_url over 2048 characters', { callback_url: `https://hooks.example.com/${'x'.repeat(2048)}` }, 'body.callback_url'],
  ];
  it('a callback_url before the account has a callback secret is 409 callback_secret_not_set, and nothing runs', async () => {
    const fresh = await newAccount('No Callback Secret Co');
    const keyword = `unsigned callbacks ${suffix()}`;
    publishArticles(world, keyword, 1);
    const item = await createItem(world, fresh.ownerToken, { title: 'Unsigned', target_keyword: keyword });
    const tag = `unsigned-${suffix()}`;
    const res = await researchItem(world, fresh.ownerToken, item, {
      body: { max_sources: 1, tags: [tag], callback_url: 'https://hooks.example.com/jobs' },
    });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'callback_secret_not_set');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual((await world.app.call('GET', `/api/jobs?tag=${tag}`, { token: fresh.ownerToken })).body.data, []);
  });

  for (const [what, body, path] of invalid) {
    it(`${what} is 400 validation_failed naming ${path}, and nothing runs`, async () => {
      const tag = `never-${suffix()}`;
      const res = await researchItem(world, owner.ownerToken, itemId, { body: { max_sources: 1, tags: [tag], ...body } });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(
        res.body.errors.some((e: { path: string }) => e.path.startsWith(path)),
        `${path} in ${JSON.stringify(res.body.errors)}`,
      );
      if (!('tags' in body)) assert.deepEqual((await list(`tag=${tag}`)).body.data, []);
    });
  }
});
