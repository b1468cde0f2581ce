import assert from 'node:assert/strict';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { call, type CallResult } from '../helpers/http';
import { newKnowledgeBase } from '../knowledge/fixtures';

const LONE = 'a\ud800b';

/** The request sends `\ud800` as a JSON escape (JSON.stringify writes lone surrogates that way). */
function assertRefused(res: CallResult, path: string) {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 'validation_failed', res.text);
  assert.deepEqual(
    res.body.errors.map((e: { path: string }) => e.path),
    [path],
    res.text,
  );
  assert.match(res.body.errors[0].message, /surrogate/);
}

/** A follow-up read of the list the refused write would have added to. */
async function listed(token: string, path: string, member = 'data'): Promise<number> {
  const res = await call('GET', path, { token });
  assert.equal(res.status, 200, res.text);
  return res.body[member].length;
}

describe('ill-formed Unicode (a lone UTF-16 surrogate) is 400 validation_failed naming its field, and nothing is written', () => {
  let account: TestAccount;
  beforeEach(async () => {
    account = await newAccount('Surrogate Co');
  });

  it('content target_keyword and settings (a value and a key)', async () => {
    const post = (body: Record<string, unknown>) =>
      call('POST', '/api/marketing/content', { token: account.ownerToken, body: { title: 'Heat pumps', ...body } });
    assertRefused(await post({ target_keyword: LONE }), 'body.target_keyword');
    assertRefused(await post({ settings: { tone: LONE } }), 'body.settings.tone');
    assertRefused(await post({ settings: { nested: [{ [LONE]: 1 }] } }), 'body.settings.nested.0.a\ufffdb');
    assert.equal(await listed(account.ownerToken, '/api/marketing/content'), 0);
  });

  it('avatar attributes', async () => {
    const res = await call('POST', '/api/marketing/avatars', {
      token: account.ownerToken,
      body: { name: 'Owner', attributes: { goals: ['grow', LONE] } },
    });
    assertRefused(res, 'body.attributes.goals.1');
    assert.equal(await listed(account.ownerToken, '/api/marketing/avatars'), 0);
  });

  it('journey stages', async () => {
    const res = await call('POST', '/api/marketing/journeys', {
      token: account.ownerToken,
      body: { name: 'Buyer', stages: [{ name: 'Awareness' }, { name: LONE }] },
    });
    assertRefused(res, 'body.stages.1.name');
    assert.equal(await listed(account.ownerToken, '/api/marketing/journeys'), 0);
  });

  it('knowledge artifact content_json', async () => {
    const kb = await newKnowledgeBase(account.accountId);
    const path = `/api/agent/knowledge-bases/${kb.id}/artifacts`;
    const res = await call('POST', path, {
      token: account.agentKey,
      body: { artifact_type: 'serp_brief', key: 'keyword:x', content_json: { brief: LONE } },
    });
    assertRefused(res, 'body.content_json.brief');
    const read = await call('GET', `/api/agent/knowledge-bases/${kb.id}`, { token: account.agentKey });
    assert.equal(read.body.artifact_count, 0, read.text);
  });

  it('a plain text field is refused, not stored as U+FFFD', async () => {
    const res = await call('POST', '/api/crm/contacts', {
      token: account.ownerToken,
      body: { name: `Ada${LONE}`, email: 'ada@example.com' },
    });
    assertRefused(res, 'body.name');
    assert.equal(await listed(account.ownerToken, '/api/crm/contacts', 'contacts'), 0);
  });

  it('a lone low surrogate is refused too; a well-formed surrogate pair is taken', async () => {
    const low = await call('POST', '/api/crm/contacts', { token: account.ownerToken, body: { name: 'x\udc00', email: 'ada@example.com' } });
    assertRefused(low, 'body.name');
    const pair = await call('POST', '/api/crm/contacts', {
      token: account.ownerToken,
      body: { name: 'Ada \ud83d\ude00', email: 'ada@example.com' },
    });
    assert.equal(pair.status, 201, pair.text);
    assert.equal(pair.body.name, 'Ada \u{1F600}');
  });
});
