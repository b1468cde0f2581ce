import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { call } from '../helpers/http';
import { newProjectId } from '../helpers/projects';
import { assertError, assertFieldError, createAvatar, MISSING_ID } from '../marketing/grounding/fixtures';
import { countRows } from './researchKit';

async function newItem(token: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', '/api/marketing/content', { token, body: { title: 'Route checks', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** Nothing ran for the account: no research knowledge base, no artifact, no search call. */
async function assertNothingRan(accountId: string) {
  assert.equal(await countRows('knowledge_bases', { account_id: accountId }), 0);
  assert.equal(await countRows('kb_artifacts', { account_id: accountId }), 0);
}

describe('research routes: access and validation', () => {
  let owner: TestAccount;
  let other: TestAccount;
  let itemId: string;

  before(async () => {
    owner = await newAccount('Research Routes Co');
    other = await newAccount('Other Co');
    itemId = await newItem(owner.ownerToken);
  });

  it("another account's content item is 404 content_not_found, like a missing or malformed id, and nothing runs", async () => {
    const otherItem = await newItem(other.ownerToken);
    for (const id of [otherItem, MISSING_ID, 'not-a-uuid']) {
      assertError(
        await call('POST', `/api/marketing/content/${id}/research`, { token: owner.ownerToken, body: {} }),
        404,
        'content_not_found',
      );
      assertError(await call('GET', `/api/marketing/content/${id}/research`, { token: owner.ownerToken }), 404, 'content_not_found');
      assertError(
        await call('POST', `/api/agent/marketing/content/${id}/research`, { token: owner.agentKey, body: {} }),
        404,
        'content_not_found',
      );
    }
    await assertNothingRan(owner.accountId);
    await assertNothingRan(other.accountId);
  });

  it('running research needs marketing.content:update, reading it marketing.content:read, topic research marketing.content:create (403 otherwise)', async () => {
    const readOnly = await newAgentKey(owner.accountId, ['marketing.content:read']);
    const updater = await newAgentKey(owner.accountId, ['marketing.content:update']);
    assertError(
      await call('POST', `/api/agent/marketing/content/${itemId}/research`, { token: readOnly, body: {} }),
      403,
      'missing_permission',
    );
    assertError(await call('GET', `/api/agent/marketing/content/${itemId}/research`, { token: updater }), 403, 'missing_permission');
    assertError(
      await call('POST', '/api/agent/marketing/content/research', { token: updater, body: { topic: 'Heat pumps' } }),
      403,
      'missing_permission',
    );
    assert.equal((await call('GET', `/api/agent/marketing/content/${itemId}/research`, { token: readOnly })).status, 200);
    await assertNothingRan(owner.accountId);
  });

  it('max_sources outside 1..10, a non-integer or an unknown body field is 400 and nothing runs', async () => {
    for (const [body, path] of [
      [{ max_sources: 0 }, 'body.max_sources'],
      [{ max_sources: 11 }, 'body.max_sources'],
      [{ max_sources: 2.5 }, 'body.max_sources'],
      [{ max_sources: '3' }, 'body.max_sources'],
      [{ topic: 'x' }, 'body'],
    ] as const) {
      const res = await call('POST', `/api/marketing/content/${itemId}/research`, { token: owner.ownerToken, body });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(
        res.body.errors.some((e: { path: string }) => e.path.startsWith(path)),
        res.text,
      );
    }
    await assertNothingRan(owner.accountId);
  });

  it('a malformed Idempotency-Key is 400 invalid_idempotency_key and nothing runs', async () => {
    const res = await call('POST', `/api/marketing/content/${itemId}/research`, {
      token: owner.ownerToken,
      body: {},
      headers: { 'Idempotency-Key': 'x'.repeat(256) },
    });
    assertError(res, 400, 'invalid_idempotency_key');
    await assertNothingRan(owner.accountId);
  });

  it('topic research: topic is required (1..255), an avatar of another account is 400 invalid_reference, and nothing runs', async () => {
    assertFieldError(await call('POST', '/api/agent/marketing/content/research', { token: owner.agentKey, body: {} }), 'body.topic');
    assertFieldError(
      await call('POST', '/api/agent/marketing/content/research', { token: owner.agentKey, body: { topic: '   ' } }),
      'body.topic',
    );
    assertFieldError(
      await call('POST', '/api/agent/marketing/content/research', { token: owner.agentKey, body: { topic: 'x'.repeat(256) } }),
      'body.topic',
    );
    assertFieldError(
      await call('POST', '/api/agent/marketing/content/research', { token: owner.agentKey, body: { topic: 'Heat', avatar_id: 'nope' } }),
      'body.avatar_id',
    );
    assertFieldError(
      await call('POST', '/api/agent/marketing/content/research', { token: owner.agentKey, body: { topic: 'Heat', project_id: 'nope' } }),
      'body.project_id',
    );
    const foreign = await createAvatar(other.ownerToken);
    const res = await call('POST', '/api/agent/marketing/content/research', {
      token: owner.agentKey,
      body: { topic: 'Heat pumps', avatar_id: foreign.id },
    });
    assertError(res, 400, 'invalid_reference');
    assert.equal(res.body.field, 'avatar_id');
    await assertNothingRan(owner.accountId);
  });

  it("topic research with another account's project_id, or an unknown one, is 400 invalid_reference (field project_id) and nothing runs", async () => {
    const foreign = await newProjectId(other.accountId);
    for (const projectId of [foreign, MISSING_ID]) {
      const res = await call('POST', '/api/agent/marketing/content/research', {
        token: owner.agentKey,
        body: { topic: 'Heat pumps', project_id: projectId },
      });
      assertError(res, 400, 'invalid_reference');
      assert.equal(res.body.field, 'project_id', res.text);
    }
    await assertNothingRan(owner.accountId);
  });

  it("topic research with the account's own avatar and a project runs (the project is the job's ProjectId)", async () => {
    const account = await newAccount('Avatar Co');
    const avatar = await createAvatar(account.ownerToken);
    const projectId = await newProjectId(account.accountId);
    const res = await call('POST', '/api/agent/marketing/content/research', {
      token: account.agentKey,
      body: { topic: 'Heat pumps for clinics', keyword: 'clinic heat pumps', avatar_id: avatar.id, project_id: projectId, max_sources: 1 },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.content_id, null);
    const job = await call('GET', `/api/agent/jobs/${encodeURIComponent(res.body.run_id)}`, {
      token: await newAgentKey(account.accountId, ['jobs:read']),
    });
    assert.equal(job.status, 200, job.text);
    assert.equal(job.body.project_id, projectId);
    assert.equal(job.body.kind, 'research');
  });

  it('the agent twin runs item research with marketing.content:update', async () => {
    const account = await newAccount('Agent Twin Co');
    const id = await newItem(account.ownerToken, { target_keyword: 'twin keyword' });
    const key = await newAgentKey(account.accountId, ['marketing.content:update']);
    const res = await call('POST', `/api/agent/marketing/content/${id}/research`, { token: key, body: { max_sources: 3 } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.content_id, id);
    assert.equal(res.body.keyword, 'twin keyword');
    assert.equal(res.body.topic, 'Route checks');
  });
});
