import assert from 'node:assert/strict';
import { call } from '../helpers/http';
import { newAccount, newUser, type TestAccount } from '../helpers/accounts';
import { MISSING_ID, stageOfKind, uniqueEmail } from './fixtures';

const ROUTES: Array<[string, string]> = [
  ['GET', '/api/crm/contacts'],
  ['POST', '/api/crm/contacts'],
  ['PATCH', `/api/crm/contacts/${MISSING_ID}`],
  ['DELETE', `/api/crm/contacts/${MISSING_ID}`],
  ['GET', `/api/crm/contacts/${MISSING_ID}/activities`],
  ['POST', `/api/crm/contacts/${MISSING_ID}/activities`],
  ['GET', '/api/crm/pipeline/stages'],
  ['POST', '/api/crm/pipeline/move'],
  ['GET', '/api/crm/tasks'],
  ['POST', '/api/crm/tasks'],
  ['PATCH', `/api/crm/tasks/${MISSING_ID}`],
  ['GET', '/api/crm/deals'],
  ['POST', '/api/crm/deals'],
  ['PATCH', `/api/crm/deals/${MISSING_ID}`],
];

describe('CRM access', () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount();
  });

  it('every CRM route without a token answers 401 missing_credentials', async () => {
    for (const [method, path] of ROUTES) {
      const res = await call(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      assert.equal(res.status, 401, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.code, 'missing_credentials');
    }
  });

  it('every CRM route answers 401 invalid_credentials to an invalid token and 401 wrong_credential_kind to an agent key instead of a session', async () => {
    for (const [token, code] of [
      ['wys_not-a-real-token', 'invalid_credentials'],
      [acct.agentKey, 'wrong_credential_kind'],
    ]) {
      for (const [method, path] of ROUTES) {
        const res = await call(method, path, { token, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
        assert.equal(res.status, 401, `${method} ${path}: ${res.text}`);
        assert.equal(res.body.code, code);
      }
    }
  });

  it('a member-role user can use the CRM routes', async () => {
    const { token, userId } = await newUser(acct.accountId, 'member');
    const contact = await call('POST', '/api/crm/contacts', { token, body: { name: 'By member', email: uniqueEmail() } });
    assert.equal(contact.status, 201, contact.text);
    const id = contact.body.id;
    assert.equal((await call('GET', '/api/crm/contacts', { token })).status, 200);
    assert.equal((await call('PATCH', `/api/crm/contacts/${id}`, { token, body: { company: 'Co' } })).status, 200);
    assert.equal((await call('POST', `/api/crm/contacts/${id}/activities`, { token, body: { body: 'hi' } })).status, 201);
    assert.equal((await call('GET', `/api/crm/contacts/${id}/activities`, { token })).status, 200);
    const stage = await stageOfKind(token, 'open');
    assert.equal((await call('POST', '/api/crm/pipeline/move', { token, body: { contactId: id, stageId: stage.id } })).status, 200);
    const task = await call('POST', '/api/crm/tasks', { token, body: { title: 'Mine', contactId: id, assignedTo: userId } });
    assert.equal(task.status, 201, task.text);
    assert.equal((await call('PATCH', `/api/crm/tasks/${task.body.id}`, { token, body: { status: 'done' } })).status, 200);
    assert.equal((await call('GET', '/api/crm/tasks', { token })).status, 200);
    const deal = await call('POST', '/api/crm/deals', { token, body: { title: 'Deal', currency: 'USD', contactId: id } });
    assert.equal(deal.status, 201, deal.text);
    assert.equal((await call('PATCH', `/api/crm/deals/${deal.body.id}`, { token, body: { amount: 10 } })).status, 200);
    assert.equal((await call('GET', '/api/crm/deals', { token })).status, 200);
    assert.equal((await call('DELETE', `/api/crm/contacts/${id}`, { token })).status, 204);
  });

  it('the OpenAPI document lists every CRM route with session auth', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    for (const [method, path] of ROUTES) {
      const openApiPath = path.replace(MISSING_ID, '{id}');
      const op = doc.paths[openApiPath]?.[method.toLowerCase()];
      assert.ok(op, `${method} ${openApiPath} is not documented`);
      assert.deepEqual(op.security, [{ sessionToken: [] }]);
    }
  });
});
