import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { goodItem } from './fixtures';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

async function insertItem(accountId: string, fields: Record<string, unknown>): Promise<string> {
  const [row] = await harness()
    .db('content_items')
    .insert({ account_id: accountId, ...fields })
    .returning('id');
  return row.id;
}

const check = (token: string, id: string, agent = false) =>
  call('GET', `/api${agent ? '/agent' : ''}/marketing/content/${id}/seo-check`, { token });

describe('SEO check route', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let goodId: string;
  let draftId: string;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    goodId = await insertItem(acct.accountId, goodItem() as unknown as Record<string, unknown>);
    draftId = await insertItem(acct.accountId, { title: 'Draft', body: '<p>Churn fell {{source}}</p>' });
  });

  it('answers { ok, score, findings } for an item of the account', async () => {
    const res = await check(acct.ownerToken, goodId);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { ok: true, score: 100, findings: [] });
  });

  it('a draft with errors answers ok false, the score from its findings, each naming level, field, code and message', async () => {
    const res = await check(acct.ownerToken, draftId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ok, false);
    const errors = res.body.findings.filter((f: { level: string }) => f.level === 'error');
    const warnings = res.body.findings.length - errors.length;
    assert.equal(res.body.score, 100 - 15 * errors.length - 5 * warnings);
    assert.ok(
      res.body.findings.some(
        (f: Record<string, string>) => f.code === 'slug_missing' && f.field === 'slug' && f.level === 'error' && f.message,
      ),
    );
    assert.ok(res.body.findings.some((f: Record<string, string>) => f.code === 'citation_placeholder' && f.field === 'body'));
  });

  it('a row written before 2026-09-12 (keyword only in settings) is checked against that keyword', async () => {
    const legacy = { ...goodItem(), target_keyword: null, settings: JSON.stringify({ target_keyword: 'CRM software' }) };
    const id = await insertItem(acct.accountId, legacy as unknown as Record<string, unknown>);
    const res = await check(acct.ownerToken, id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.findings, []);
  });

  it('the agent twin answers the same result with a marketing.content:read key', async () => {
    const key = await newAgentKey(acct.accountId, ['marketing.content:read'], true);
    const [dashboard, agent] = await Promise.all([check(acct.ownerToken, draftId), check(key, draftId, true)]);
    assert.equal(agent.status, 200, agent.text);
    assert.deepEqual(agent.body, dashboard.body);
  });

  it('an agent key without marketing.content:read answers 403', async () => {
    const key = await newAgentKey(acct.accountId, ['crm:read']);
    const res = await check(key, goodId, true);
    assert.equal(res.status, 403, res.text);
  });

  it('without a credential the route answers 401', async () => {
    assert.equal((await call('GET', `/api/marketing/content/${goodId}/seo-check`)).status, 401);
  });

  it('an item of another account, a missing id and a malformed id answer 404 content_not_found', async () => {
    const key = await newAgentKey(other.accountId, ['marketing.content:read']);
    for (const [token, id, agent] of [
      [other.ownerToken, goodId, false],
      [key, goodId, true],
      [acct.ownerToken, MISSING_ID, false],
      [acct.ownerToken, 'not-a-uuid', false],
    ] as const) {
      const res = await check(token, id, agent);
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'content_not_found');
    }
  });
});

describe('SEO check route: documentation', () => {
  it('/openapi.json documents both routes with every rule code', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    for (const path of ['/api/marketing/content/{id}/seo-check', '/api/agent/marketing/content/{id}/seo-check']) {
      const op = doc.paths[path]?.get;
      assert.ok(op, `${path} is not documented`);
      for (const code of ['title_too_long', 'citation_unresolved', 'heading_level_skipped', 'link_href_empty'])
        assert.ok(op.description.includes(`| ${code} |`), code);
    }
  });
});
