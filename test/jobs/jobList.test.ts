import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { call, type CallResult } from '../helpers/http';
import { eventually, jobUrl, settled, startTestJob } from './jobTestKit';

const list = (token: string, query = '', base = '/api/jobs') => call('GET', `${base}${query ? `?${query}` : ''}`, { token });
const idsOf = (res: CallResult): string[] => res.body.data.map((job: { id: string }) => job.id).sort();

describe('jobs API: GET /api/jobs', () => {
  let owner: TestAccount;
  let stranger: TestAccount;
  const contentId = randomUUID();
  const quick: string[] = [];
  let running: string;
  let failed: string;

  before(async function () {
    this.timeout(30_000);
    [owner, stranger] = await Promise.all([newAccount('List Co'), newAccount('Other Co')]);
    for (const value of ['a', 'b']) quick.push((await startTestJob(owner.ownerToken, 'quick', { value })).body.id);
    running = (await startTestJob(owner.ownerToken, 'stepped', { steps: 200, stepMs: 200 }, { content_id: contentId })).body.id;
    failed = (await startTestJob(owner.ownerToken, 'failing', { code: 'not_linked', message: 'link it first' })).body.id;
    await startTestJob(stranger.ownerToken, 'quick', { value: 'theirs' });
    for (const id of [...quick, failed]) await settled(owner.ownerToken, id);
    // Visibility is eventually consistent: wait until it shows all four jobs in their final states.
    await eventually(
      () => list(owner.ownerToken, 'status=completed'),
      (res) => res.body.data.length === 2,
      10_000,
      'visibility',
    );
    await eventually(
      () => list(owner.ownerToken),
      (res) => res.body.data.length === 4,
      10_000,
      'visibility',
    );
  });

  after(async () => {
    await call('POST', `${jobUrl(running)}/cancel`, { token: owner.ownerToken });
  });

  it("lists only the account's jobs, with the documented shape", async () => {
    const res = await list(owner.ownerToken);
    assert.equal(res.status, 200);
    assert.deepEqual(idsOf(res), [...quick, running, failed].sort());
    assert.equal(res.body.limit, 20);
    assert.equal(res.body.has_more, false);
    assert.equal(res.body.next_cursor, null);
    const item = res.body.data.find((job: { id: string }) => job.id === running);
    assert.equal(item.kind, 'test_stepped');
    assert.equal(item.status, 'running');
    assert.equal(item.content_id, contentId);
    assert.equal(typeof item.links.temporal_ui, 'string');
    const theirs = await list(stranger.ownerToken);
    assert.equal(theirs.body.data.length >= 1, true);
    assert.ok(theirs.body.data.every((job: { id: string }) => !idsOf(res).includes(job.id)));
  });

  it('filters by kind, status and content_id', async () => {
    assert.deepEqual(idsOf(await list(owner.ownerToken, 'kind=test_quick')), [...quick].sort());
    assert.deepEqual(idsOf(await list(owner.ownerToken, 'status=running')), [running]);
    assert.deepEqual(idsOf(await list(owner.ownerToken, 'status=failed')), [failed]);
    assert.deepEqual(idsOf(await list(owner.ownerToken, `content_id=${contentId}`)), [running]);
    assert.deepEqual(idsOf(await list(owner.ownerToken, 'kind=test_quick&status=running')), []);
    assert.deepEqual(idsOf(await list(owner.ownerToken, 'kind=no_such_kind')), []);
  });

  it('pages by cursor: limit=1 walks every job once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res: CallResult = await list(owner.ownerToken, `limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      assert.ok(res.body.data.length <= 1);
      seen.push(...idsOf(res));
      if (!res.body.has_more) break;
      cursor = res.body.next_cursor;
      assert.equal(typeof cursor, 'string');
    }
    assert.deepEqual(seen.sort(), [...quick, running, failed].sort());
  });

  it('a cursor only continues its own listing: other filters, another account or a forged cursor answer 400 invalid_cursor', async () => {
    const first = await list(owner.ownerToken, 'limit=1');
    const cursor = first.body.next_cursor as string;
    const otherFilter = await list(owner.ownerToken, `limit=1&kind=test_quick&cursor=${cursor}`);
    assert.equal(otherFilter.status, 400);
    assert.equal(otherFilter.body.code, 'invalid_cursor');
    assert.equal((await list(stranger.ownerToken, `limit=1&cursor=${cursor}`)).body.code, 'invalid_cursor');
    const forged = `${Buffer.from('{"garbage":true}').toString('base64url')}.${cursor.split('.')[1]}`;
    assert.equal((await list(owner.ownerToken, `cursor=${forged}`)).body.code, 'invalid_cursor');
    assert.equal((await list(owner.ownerToken, 'cursor=not-a-cursor')).body.code, 'invalid_cursor');
  });

  it('bad filters answer 400 validation_failed', async () => {
    for (const query of ['status=sleeping', 'limit=0', 'limit=101', 'content_id=not-a-uuid', "kind=x'%20OR%20'1'='1", 'colour=red']) {
      const res = await list(owner.ownerToken, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 'validation_failed', query);
    }
  });

  it('agent keys list with jobs:read', async () => {
    const key = await newAgentKey(owner.accountId, ['jobs:read']);
    const res = await list(key, 'kind=test_quick', '/api/agent/jobs');
    assert.equal(res.status, 200);
    assert.deepEqual(idsOf(res), [...quick].sort());
  });
});
