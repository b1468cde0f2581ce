import assert from 'node:assert/strict';
import { createDomain } from '../../../src/email/domains/service';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, SENDER_DOMAIN, senderAccount, verifiedDomain } from './kit';

const send = (token: string, from: string) => call('POST', '/v1/email/send', { token, body: message({ from }) });

describe('POST /v1/email/send: sender domain rules', () => {
  it('a from domain that is not a domain of the account is 403 domain_not_verified', async () => {
    const account = await newAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await send(token, 'hello@unknown.example.test');
    assertError(res, 403, 'domain_not_verified');
    assert.equal(res.body.field, 'from');
  });

  it('a pending (unverified) domain of the account is 403 domain_not_verified', async () => {
    const account = await newAccount();
    await createDomain(harness().db, account.accountId, 'pending.example.test');
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    assertError(await send(token, 'hello@pending.example.test'), 403, 'domain_not_verified');
  });

  it("another account's verified domain is 403 domain_not_verified", async () => {
    const owner = await senderAccount('theirs.example.test');
    const other = await newAccount();
    const { token } = await emailKey(other.accountId, { environment: 'test' });
    assertError(await send(token, 'ceo@theirs.example.test'), 403, 'domain_not_verified');
    const { token: ownerKey } = await emailKey(owner.accountId, { environment: 'test' });
    assert.equal((await send(ownerKey, 'ceo@theirs.example.test')).status, 200);
  });

  it('the from domain must be verified exactly: a subdomain of a verified domain is 403', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    assertError(await send(token, `hello@news.${SENDER_DOMAIN}`), 403, 'domain_not_verified');
  });

  it('the from domain matches whatever its case', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await send(token, `Support@${SENDER_DOMAIN.toUpperCase()}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.from, `Support@${SENDER_DOMAIN}`);
  });

  it('a key with a domain allowlist may send only from those domains: another verified domain is 403 domain_not_allowed', async () => {
    const account = await senderAccount();
    await verifiedDomain(account.accountId, 'brand.example.test');
    const { token } = await emailKey(account.accountId, { environment: 'test', allowedDomains: ['brand.example.test'] });
    const refused = await send(token, `hello@${SENDER_DOMAIN}`);
    assertError(refused, 403, 'domain_not_allowed');
    assert.equal(refused.body.field, 'from');
    assert.equal((await send(token, 'hello@brand.example.test')).status, 200);
  });

  it("a domain in the key's allowlist still needs to be verified", async () => {
    const account = await newAccount();
    await createDomain(harness().db, account.accountId, 'later.example.test');
    const { token } = await emailKey(account.accountId, { environment: 'test', allowedDomains: ['later.example.test'] });
    assertError(await send(token, 'hello@later.example.test'), 403, 'domain_not_verified');
  });

  it("a refused domain uses none of the key's rate limit", async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', ratePerSecond: 1 });
    assertError(await send(token, 'x@unknown.example.test'), 403, 'domain_not_verified');
    assertError(await send(token, 'x@unknown.example.test'), 403, 'domain_not_verified');
    assert.equal((await send(token, `x@${SENDER_DOMAIN}`)).status, 200);
  });
});
