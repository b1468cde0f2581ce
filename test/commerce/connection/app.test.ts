import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { newAccount, newUser } from '../../helpers/accounts';

describe('commerce app registration', () => {
  const secret = 'csec_abcdefghijklmnop1234';

  it('an owner registers the app; the secret is stored as given and answered only as its last 4 characters', async () => {
    const account = await newAccount();
    const res = await call('PUT', '/api/commerce/app', { token: account.ownerToken, body: { client_id: 'cid_1', client_secret: secret } });
    assert.equal(res.status, 200);
    assert.equal(res.body.provider, 'commerce');
    assert.equal(res.body.client_id, 'cid_1');
    assert.equal(res.body.client_secret_hint, '1234');
    assert.ok(!res.text.includes(secret));
    assert.equal(res.body.redirect_uri, `${harness().deps.config.PUBLIC_APP_URL}/api/oauth/commerce/callback`);
    assert.equal(res.body.compliance_webhook_url, `${harness().deps.config.PUBLIC_APP_URL}/api/webhooks/commerce`);

    const row = await harness().db('app_registrations').where({ account_id: account.accountId, provider: 'commerce' }).first();
    assert.equal(row.client_secret, secret, 'plaintext on purpose: the receiver verifies signatures with it');

    const read = await call('GET', '/api/commerce/app', { token: account.ownerToken });
    assert.equal(read.status, 200);
    assert.equal(read.body.client_secret_hint, '1234');
    assert.ok(!read.text.includes(secret));
  });

  it('registering again replaces the app (one per account)', async () => {
    const account = await newAccount();
    await call('PUT', '/api/commerce/app', { token: account.ownerToken, body: { client_id: 'cid_old', client_secret: secret } });
    const res = await call('PUT', '/api/commerce/app', {
      token: account.ownerToken,
      body: { client_id: 'cid_new', client_secret: 'csec_new_9876' },
    });
    assert.equal(res.body.client_id, 'cid_new');
    assert.equal(res.body.client_secret_hint, '9876');
    assert.equal((await harness().db('app_registrations').where({ account_id: account.accountId })).length, 1);
  });

  it("an account without a registration answers 404 commerce_app_not_registered; another account's app is never visible", async () => {
    const other = await newAccount();
    await call('PUT', '/api/commerce/app', { token: other.ownerToken, body: { client_id: 'cid_other', client_secret: secret } });
    const account = await newAccount();
    const res = await call('GET', '/api/commerce/app', { token: account.ownerToken });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'commerce_app_not_registered');
  });

  it('a member may read but not register the app', async () => {
    const account = await newAccount();
    const member = await newUser(account.accountId, 'member');
    const put = await call('PUT', '/api/commerce/app', { token: member.token, body: { client_id: 'cid', client_secret: secret } });
    assert.equal(put.status, 403);
    const admin = await newUser(account.accountId, 'admin');
    assert.equal(
      (await call('PUT', '/api/commerce/app', { token: admin.token, body: { client_id: 'cid', client_secret: secret } })).status,
      200,
    );
    assert.equal((await call('GET', '/api/commerce/app', { token: member.token })).status, 200);
  });

  it('missing, blank, spaced or unknown fields answer 400 and store nothing', async () => {
    const account = await newAccount();
    for (const body of [
      { client_id: 'cid' },
      { client_id: '', client_secret: secret },
      { client_id: 'c id', client_secret: secret },
      { client_id: 'cid', client_secret: secret, extra: 1 },
    ]) {
      const res = await call('PUT', '/api/commerce/app', { token: account.ownerToken, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_failed');
    }
    assert.equal((await harness().db('app_registrations').where({ account_id: account.accountId })).length, 0);
  });
});
