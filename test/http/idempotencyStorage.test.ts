import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { requestHash } from '../../src/http/idempotency';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { purgeIdempotencyKeysContract } from '../../workflows/purgeIdempotencyKeys.contract';

const createKey = (token: string, key: string, name = 'ci') =>
  call('POST', '/api/agent-keys', { token, body: { name, permissions: ['crm:read'] }, headers: { 'idempotency-key': key } });

describe('idempotency storage', () => {
  it('a stored response is sealed: the token shown once is not readable in the database, yet a retry replays it', async () => {
    const { accountId, ownerToken } = await newAccount();
    const key = randomUUID();
    const first = await createKey(ownerToken, key);
    assert.equal(first.status, 201);
    const row = await harness().db('idempotency_keys').where({ account_id: accountId, key }).first();
    assert.match(row.response_body_sealed, /^v1:[^:]+:[^:]+:[^:]+$/);
    assert.ok(!JSON.stringify(row).includes(first.body.token), 'the token must not be stored in the clear');

    const retry = await createKey(ownerToken, key);
    assert.equal(retry.status, 201);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.body.token, first.body.token);
  });

  it('a claim abandoned in progress for over 10 minutes is taken over by the next request', async () => {
    const { accountId, ownerToken } = await newAccount();
    const key = randomUUID();
    await harness()
      .db('idempotency_keys')
      .insert({
        account_id: accountId,
        route: 'POST /api/agent-keys',
        key,
        request_hash: 'left-by-a-dead-process',
        state: 'in_progress',
        created_at: harness().db.raw(`now() - interval '11 minutes'`),
      });
    const res = await createKey(ownerToken, key);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('idempotent-replayed'), null);
  });

  it('a claim in progress for less than 10 minutes still answers 409 idempotency_request_in_progress', async () => {
    const { accountId, ownerToken } = await newAccount();
    const key = randomUUID();
    await harness()
      .db('idempotency_keys')
      .insert({
        account_id: accountId,
        route: 'POST /api/agent-keys',
        key,
        state: 'in_progress',
        request_hash: requestHash({ body: { name: 'ci', permissions: ['crm:read'], read_only: false } }), // the validated body, defaults applied
      });
    const res = await createKey(ownerToken, key);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'idempotency_request_in_progress');
    assert.equal(res.headers.get('retry-after'), '1');
  });

  it('the idempotency-key-purge sweep deletes responses older than 24 hours and keeps fresh ones', async () => {
    const { accountId } = await newAccount();
    const { db, client, taskQueue } = harness();
    const row = (key: string, age: string) => ({
      account_id: accountId,
      route: 'POST /x',
      key,
      request_hash: 'h',
      state: 'completed',
      response_status: 200,
      created_at: db.raw(`now() - interval '${age}'`),
    });
    await db('idempotency_keys').insert([row('old', '25 hours'), row('fresh', '1 hour')]);

    const result = await client.workflow.execute(purgeIdempotencyKeysContract.workflowType, {
      taskQueue,
      workflowId: `purge-${randomUUID()}`,
      args: [],
    });

    assert.ok((result as { deleted: number }).deleted >= 1);
    const left = await db('idempotency_keys').where({ account_id: accountId }).pluck('key');
    assert.deepEqual(left, ['fresh']);
  });
});
