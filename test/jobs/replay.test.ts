import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { REPLAY_POLICY } from '../../src/jobs/replayable';
import { researchContract } from '../../workflows/research.contract';
import { failingJobContract } from '../workflows/failingJob.contract';
import { quickJobContract } from '../workflows/quickJob.contract';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { jobUrl, settled } from './jobTestKit';
import { failedResearch, idleTaskQueue, startArgsOf, startOfKind } from './replayKit';

const replay = (token: string, id: string, base = '/api/jobs', headers: Record<string, string> = {}) =>
  call('POST', `${jobUrl(id, base)}/replay`, { token, headers });

describe('jobs API: POST /api/jobs/{id}/replay', () => {
  let owner: TestAccount;
  let stranger: TestAccount;

  before(async () => {
    [owner, stranger] = await Promise.all([newAccount('Replay Co'), newAccount('Other Co')]);
  });

  it('a failed research run starts again as a new job with the same input, kind, content_id, tags and metadata, and replay_of', async () => {
    const old = await failedResearch(owner.accountId, owner.ownerToken, { tags: ['nightly'], metadata: { batch: '7' } });
    const res = await replay(owner.ownerToken, old.id);
    assert.equal(res.status, 201, res.text);
    assert.notEqual(res.body.id, old.id);
    assert.match(res.body.id, new RegExp(`^research:${owner.accountId}:`));
    assert.equal(res.body.kind, 'research');
    assert.equal(res.body.replay_of, old.id);
    assert.equal(res.body.content_id, old.input.contentId);
    assert.deepEqual(res.body.tags, ['nightly']);
    assert.deepEqual(res.body.metadata, { batch: '7' });
    assert.equal(res.headers.get('location'), `/api/jobs/${res.body.id}`);
    assert.deepEqual(await startArgsOf(res.body.id), [old.input]);
    // The old job is left as it was.
    const before = await settled(owner.ownerToken, old.id);
    assert.equal(before.body.status, 'failed');
    assert.equal(before.body.replay_of, null);
    await settled(owner.ownerToken, res.body.id, 20_000);
  });

  it('the same Idempotency-Key replays once: the retry answers the same new job', async () => {
    const old = await failedResearch(owner.accountId, owner.ownerToken);
    const first = await replay(owner.ownerToken, old.id, '/api/jobs', { 'Idempotency-Key': `replay-${old.id.slice(-8)}` });
    const again = await replay(owner.ownerToken, old.id, '/api/jobs', { 'Idempotency-Key': `replay-${old.id.slice(-8)}` });
    assert.equal(first.status, 201, first.text);
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
  });

  it('agent keys replay with jobs:write; jobs:read alone is 403', async () => {
    const old = await failedResearch(owner.accountId, owner.ownerToken);
    const reader = await newAgentKey(owner.accountId, ['jobs:read']);
    const writer = await newAgentKey(owner.accountId, ['jobs:read', 'jobs:write']);
    assert.equal((await replay(reader, old.id, '/api/agent/jobs')).status, 403);
    const res = await replay(writer, old.id, '/api/agent/jobs');
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.replay_of, old.id);
    assert.equal(res.headers.get('location'), `/api/agent/jobs/${res.body.id}`);
  });

  it('a running job answers 409 job_not_closed', async () => {
    const id = await startOfKind(owner.accountId, researchContract, [{}], idleTaskQueue());
    try {
      const res = await replay(owner.ownerToken, id);
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'job_not_closed');
    } finally {
      await harness().client.workflow.getHandle(id).terminate('test cleanup');
    }
  });

  it('a completed job answers 409 job_completed', async () => {
    const id = await startOfKind(owner.accountId, { workflowType: quickJobContract.workflowType, jobKind: 'research' }, [{ value: 'x' }]);
    await settled(owner.ownerToken, id);
    const res = await replay(owner.ownerToken, id);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'job_completed');
  });

  it('a kind whose input is not the work (a webhook hand-off, a test kind) answers 409 job_not_replayable with the reason', async () => {
    const handoff = await startOfKind(owner.accountId, { workflowType: failingJobContract.workflowType, jobKind: 'commerce-shop' }, [
      { code: 'boom', message: 'failed' },
    ]);
    await settled(owner.ownerToken, handoff);
    const res = await replay(owner.ownerToken, handoff);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'job_not_replayable');
    assert.match(res.body.message, /commerce-shop job cannot be replayed: it is a webhook hand-off/);

    const testKind = await startOfKind(owner.accountId, failingJobContract, [{ code: 'boom', message: 'failed' }]);
    await settled(owner.ownerToken, testKind);
    const other = await replay(owner.ownerToken, testKind);
    assert.equal(other.status, 409);
    assert.equal(other.body.code, 'job_not_replayable');
  });

  it("another account's job, and a missing one, answer 404 job_not_found", async () => {
    const old = await failedResearch(owner.accountId, owner.ownerToken);
    const foreign = await replay(stranger.ownerToken, old.id);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'job_not_found');
    const missing = await replay(owner.ownerToken, `research:${owner.accountId}:no-such-job`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'job_not_found');
  });

  it('every job kind of workflows/*.contract.ts has a replay decision, and every refusal a reason', () => {
    const dir = path.resolve(__dirname, '../../workflows');
    const kinds = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.contract.ts'))) {
      // tsx/cjs loads TypeScript through require (a dynamic import of .ts is refused).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(path.join(dir, file)) as Record<string, unknown>;
      for (const value of Object.values(mod)) {
        const kind = (value as { jobKind?: unknown } | null)?.jobKind;
        if (typeof kind === 'string') kinds.add(kind);
      }
    }
    assert.ok(kinds.size > 20, `found only ${kinds.size} kinds`);
    const undecided = [...kinds].filter((kind) => !Object.hasOwn(REPLAY_POLICY, kind));
    assert.deepEqual(undecided, [], `kinds without a replay decision in src/jobs/replayable.ts: ${undecided.join(', ')}`);
    for (const [kind, policy] of Object.entries(REPLAY_POLICY)) {
      if (!policy.replayable) assert.ok(policy.reason.length > 20, `${kind} has no reason`);
    }
  });
});
