import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { call, type CallResult } from '../helpers/http';
import { emailKey, messageRows, senderAccount } from '../email/send/kit';
import { countRows, newKnowledgeBase } from '../knowledge/fixtures';

/** The documented bound of every JSON body. */
const MAX_JSON_DEPTH = 64;

/** `levels` arrays inside each other: `[[[…]]]`. */
const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** `levels` objects inside each other: `{"a":{"a":…{}}}`. */
const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

function assertTooDeep(res: CallResult) {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 'json_too_deep');
  assert.match(res.body.message, new RegExp(`\\b${MAX_JSON_DEPTH}\\b`), 'the message names the limit');
  assert.equal(res.body.request_id, res.headers.get('x-request-id'));
}

const json = { 'content-type': 'application/json' };

describe('JSON bodies nested deeper than the limit', () => {
  let account: TestAccount;
  before(async () => {
    account = await newAccount();
  });

  it('a JSON body nested deeper than 64 levels answers 400 json_too_deep naming the limit (POST /v1/email/batch with an Idempotency-Key)', async () => {
    const sender = await senderAccount();
    const { token } = await emailKey(sender.accountId, { environment: 'test' });
    const res = await call('POST', '/v1/email/batch', {
      token,
      rawBody: nestedArrays(5_000),
      headers: { ...json, 'idempotency-key': randomUUID() },
    });
    assertTooDeep(res);
    assert.equal((await messageRows(sender.accountId)).length, 0, 'nothing is sent');
  });

  it('a knowledge artifact whose content_json nests 4,000 levels answers 400 json_too_deep and writes nothing', async () => {
    const kb = await newKnowledgeBase(account.accountId);
    const before = await countRows(account.accountId);
    const res = await call('POST', `/api/agent/knowledge-bases/${kb.id}/artifacts`, {
      token: account.agentKey,
      rawBody: `{"artifact_type":"deep_notes","content_json":${nestedObjects(4_000)}}`,
      headers: json,
    });
    assertTooDeep(res);
    assert.deepEqual(await countRows(account.accountId), before);
  });

  it('a body nested exactly 64 levels is read; brackets inside strings do not count', async () => {
    const kb = await newKnowledgeBase(account.accountId);
    // The body object is level 1, content_json level 2: 62 more arrays inside it reach 64.
    const atLimit = `{"artifact_type":"deep_notes","content_json":{"list":${nestedArrays(MAX_JSON_DEPTH - 2)}}}`;
    const ok = await call('POST', `/api/agent/knowledge-bases/${kb.id}/artifacts`, {
      token: account.agentKey,
      rawBody: atLimit,
      headers: json,
    });
    assert.equal(ok.status, 201, ok.text);
    const overLimit = `{"artifact_type":"deep_notes","content_json":{"list":${nestedArrays(MAX_JSON_DEPTH - 1)}}}`;
    assertTooDeep(
      await call('POST', `/api/agent/knowledge-bases/${kb.id}/artifacts`, { token: account.agentKey, rawBody: overLimit, headers: json }),
    );
    const quoted = JSON.stringify({ artifact_type: 'deep_notes', content_json: { text: `"[{\\${'['.repeat(5_000)}` } });
    const inString = await call('POST', `/api/agent/knowledge-bases/${kb.id}/artifacts`, {
      token: account.agentKey,
      rawBody: quoted,
      headers: json,
    });
    assert.equal(inString.status, 201, inString.text);
  });

  it('a JSON-RPC message to /mcp nested deeper than 64 levels answers 400 json_too_deep', async () => {
    const message = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"platform_site_list","arguments":{"x":${nestedArrays(10_000)}}}}`;
    assertTooDeep(
      await call('POST', '/mcp', {
        token: account.agentKey,
        rawBody: message,
        headers: { ...json, accept: 'application/json, text/event-stream' },
      }),
    );
  });
});
