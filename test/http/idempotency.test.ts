import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';

async function keysNamed(accountId: string, name: string): Promise<number> {
  const [{ count }] = await harness().db('agent_keys').where({ account_id: accountId, name }).count<{ count: number }[]>('* as count');
  return Number(count);
}

describe('Idempotency-Key on POST /api/agent-keys', () => {
  let account: TestAccount;
  beforeEach(async () => {
    account = await newAccount();
  });

  const create = (key: string, body: unknown, token = account.ownerToken) =>
    call('POST', '/api/agent-keys', { token, body, headers: { 'idempotency-key': key } });

  it('a retry with the same key and body replays the first response and creates one key', async () => {
    const key = randomUUID();
    const body = { name: 'retry-me', permissions: ['crm:read'] };
    const first = await create(key, body);
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const second = await create(key, { permissions: ['crm:read'], name: 'retry-me' });
    assert.equal(second.status, 201);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(second.body, first.body);
    assert.equal(await keysNamed(account.accountId, 'retry-me'), 1);
  });

  it('without an Idempotency-Key, two identical requests create two keys', async () => {
    const body = { name: 'no-key', permissions: ['crm:read'] };
    const a = await call('POST', '/api/agent-keys', { token: account.ownerToken, body });
    const b = await call('POST', '/api/agent-keys', { token: account.ownerToken, body });
    assert.notEqual(a.body.id, b.body.id);
    assert.equal(await keysNamed(account.accountId, 'no-key'), 2);
  });

  it('the same key with a different body answers 409 idempotency_key_reused and creates nothing', async () => {
    const key = randomUUID();
    assert.equal((await create(key, { name: 'first-body', permissions: ['crm:read'] })).status, 201);
    const res = await create(key, { name: 'second-body', permissions: ['crm:read'] });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'idempotency_key_reused');
    assert.equal(await keysNamed(account.accountId, 'second-body'), 0);
  });

  it('a concurrent duplicate is answered consistently and only one key is created', async () => {
    for (let round = 0; round < 5; round++) {
      const key = randomUUID();
      const name = `race-${round}`;
      const body = { name, permissions: ['crm:read'] };
      const results = await Promise.all([create(key, body), create(key, body)]);
      const originals = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') !== 'true');
      assert.equal(originals.length, 1, `round ${round}: exactly one request creates the key`);
      const [other] = results.filter((r) => r !== originals[0]);
      if (other.status === 201) {
        assert.equal(other.headers.get('idempotent-replayed'), 'true');
        assert.equal(other.body.id, originals[0].body.id);
      } else {
        assert.equal(other.status, 409, other.text);
        assert.equal(other.body.code, 'idempotency_request_in_progress');
        assert.equal(other.headers.get('retry-after'), '1');
      }
      assert.equal(await keysNamed(account.accountId, name), 1, `round ${round}: one row`);
      const retried = await create(key, body);
      assert.equal(retried.body.id, originals[0].body.id, 'a later retry replays the finished response');
    }
  });

  it('keys are scoped per account: the same key in two accounts creates two keys', async () => {
    const other = await newAccount();
    const key = randomUUID();
    const body = { name: 'scoped', permissions: ['crm:read'] };
    const mine = await create(key, body);
    const theirs = await create(key, body, other.ownerToken);
    assert.equal(mine.status, 201);
    assert.equal(theirs.status, 201);
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    assert.notEqual(mine.body.id, theirs.body.id);
    assert.equal(await keysNamed(account.accountId, 'scoped'), 1);
    assert.equal(await keysNamed(other.accountId, 'scoped'), 1);
  });

  it('an invalid Idempotency-Key answers 400 invalid_idempotency_key and creates nothing', async () => {
    for (const key of ['k'.repeat(256), 'has space', 'ünïcode']) {
      const res = await create(key, { name: 'bad-key', permissions: ['crm:read'] });
      assert.equal(res.status, 400, key);
      assert.equal(res.body.code, 'invalid_idempotency_key');
    }
    assert.equal(await keysNamed(account.accountId, 'bad-key'), 0);
  });
});

describe('Idempotency-Key replays and request ids', () => {
  const KBS = '/api/agent/knowledge-bases';
  const requestId = () => `req-${randomUUID()}`;

  it("a replayed error answer carries the replaying request's own request_id, with its code, details and Idempotent-Replayed", async () => {
    const account = await newAccount();
    const name = `Taken ${randomUUID()}`;
    assert.equal((await call('POST', KBS, { token: account.agentKey, body: { name } })).status, 201);
    const key = randomUUID();
    const send = (id: string) =>
      call('POST', KBS, { token: account.agentKey, body: { name }, headers: { 'idempotency-key': key, 'x-request-id': id } });
    const firstId = requestId();
    const first = await send(firstId);
    assert.equal(first.status, 409, first.text);
    assert.equal(first.body.request_id, firstId);
    const replayId = requestId();
    const replay = await send(replayId);
    assert.equal(replay.status, 409, replay.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.headers.get('x-request-id'), replayId);
    assert.equal(replay.body.request_id, replayId, 'the replay names its own request');
    assert.deepEqual({ ...replay.body, request_id: undefined }, { ...first.body, request_id: undefined });
  });

  it("a replayed success answer carries the replaying request's own X-Request-Id", async () => {
    const account = await newAccount();
    const key = randomUUID();
    const body = { name: `Fresh ${randomUUID()}` };
    const send = (id: string) =>
      call('POST', KBS, { token: account.agentKey, body, headers: { 'idempotency-key': key, 'x-request-id': id } });
    const first = await send(requestId());
    assert.equal(first.status, 201, first.text);
    const replayId = requestId();
    const replay = await send(replayId);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.headers.get('x-request-id'), replayId);
    assert.deepEqual(replay.body, first.body);
  });
});
