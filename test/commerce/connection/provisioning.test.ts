import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, newUser } from '../../helpers/accounts';
import { startPrivateApp } from '../../helpers/privateApp';

describe('commerce dev-store provisioning', () => {
  it('without COMMERCE_PARTNER_API_TOKEN and COMMERCE_PARTNER_ORG_ID it answers 501 provisioning_not_configured', async () => {
    const account = await newAccount();
    const res = await call('POST', '/api/commerce/dev-stores', { token: account.ownerToken, body: { name: 'Dev' } });
    assert.equal(res.status, 501);
    assert.equal(res.body.code, 'provisioning_not_configured');
    assert.deepEqual(res.body.missing, ['COMMERCE_PARTNER_API_TOKEN', 'COMMERCE_PARTNER_ORG_ID']);
  });

  it('with only one of the partner variables it still answers 501 provisioning_not_configured', async () => {
    const app = await startPrivateApp([], { config: { COMMERCE_PARTNER_API_TOKEN: 'partner-token' } });
    try {
      const account = await newAccount();
      const res = await app.call('POST', '/api/commerce/dev-stores', { token: account.ownerToken, body: {} });
      assert.equal(res.status, 501);
      assert.equal(res.body.code, 'provisioning_not_configured');
      assert.deepEqual(res.body.missing, ['COMMERCE_PARTNER_ORG_ID']);
      assert.ok(!res.text.includes('partner-token'));
    } finally {
      await app.close();
    }
  });

  it('with both partner variables it answers 501 provisioning_not_implemented', async () => {
    const app = await startPrivateApp([], { config: { COMMERCE_PARTNER_API_TOKEN: 'partner-token', COMMERCE_PARTNER_ORG_ID: '123456' } });
    try {
      const account = await newAccount();
      const res = await app.call('POST', '/api/commerce/dev-stores', { token: account.ownerToken, body: {} });
      assert.equal(res.status, 501);
      assert.equal(res.body.code, 'provisioning_not_implemented');
    } finally {
      await app.close();
    }
  });

  it('a member may not provision (403)', async () => {
    const account = await newAccount();
    const member = await newUser(account.accountId, 'member');
    assert.equal((await call('POST', '/api/commerce/dev-stores', { token: member.token, body: {} })).status, 403);
  });
});
