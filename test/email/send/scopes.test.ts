import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, senderAccount } from './kit';

describe('email sending: keys and scopes', () => {
  it('send needs the email:send scope: a key with only email:batch is 403 missing_scope', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', scopes: ['email:batch'] });
    assertError(await call('POST', '/v1/email/send', { token, body: message() }), 403, 'missing_scope');
    assert.equal((await call('POST', '/v1/email/batch', { token, body: [message()] })).status, 200);
  });

  it('batch needs the email:batch scope: a key with only email:send is 403 missing_scope', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', scopes: ['email:send'] });
    assertError(await call('POST', '/v1/email/batch', { token, body: [message()] }), 403, 'missing_scope');
    assert.equal((await call('POST', '/v1/email/send', { token, body: message() })).status, 200);
  });

  it('a key with neither sending scope can send nothing', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, {
      environment: 'test',
      scopes: ['email:domains', 'email:templates', 'email:webhooks'],
    });
    assertError(await call('POST', '/v1/email/send', { token, body: message() }), 403, 'missing_scope');
    assertError(await call('POST', '/v1/email/batch', { token, body: [message()] }), 403, 'missing_scope');
  });

  it('a missing, malformed or unknown key is 401 invalid_api_key; a valid credential of another kind is 401 wrong_credential_kind', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const forged = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    for (const bad of [undefined, 'nonsense', forged]) {
      assertError(await call('POST', '/v1/email/send', { token: bad, body: message() }), 401, 'invalid_api_key');
    }
    for (const other of [account.ownerToken, account.agentKey]) {
      assertError(await call('POST', '/v1/email/send', { token: other, body: message() }), 401, 'wrong_credential_kind');
    }
  });

  it("a request from outside the key's IP allowlist is 403 ip_not_allowed", async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', allowedIps: ['10.0.0.0/8'] });
    assertError(await call('POST', '/v1/email/send', { token, body: message() }), 403, 'ip_not_allowed');
    const { token: loopback } = await emailKey(account.accountId, { environment: 'test', allowedIps: ['127.0.0.1/32', '::1'] });
    assert.equal((await call('POST', '/v1/email/send', { token: loopback, body: message() })).status, 200);
  });

  it('the key is checked before the body: a bad key with a bad body is 401', async () => {
    assertError(await call('POST', '/v1/email/send', { token: 'svc_live_nope', body: { nonsense: true } }), 401, 'invalid_api_key');
  });
});
