import assert from 'node:assert/strict';
import { newAccount } from '../../helpers/accounts';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, startSendWorld, type SendWorld } from '../send/kit';

describe('/v1/email/suppressions', () => {
  let world: SendWorld;

  before(async () => {
    world = await startSendWorld();
  });
  after(async () => {
    await world.close();
  });

  const keys = async (accountId: string) => ({
    manage: (await emailKey(accountId, { scopes: ['email:send', 'email:suppressions'] })).token,
    send: (await emailKey(accountId, { scopes: ['email:send'] })).token,
  });

  it('a manual suppression is stored in lower case, listed newest first, filtered, and removed', async () => {
    const { accountId } = await newAccount();
    const { manage, send } = await keys(accountId);
    const added = await world.app.call('POST', '/v1/email/suppressions', { token: manage, body: { email: 'Jane.Doe@Customer.TEST' } });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body.object, 'suppression');
    assert.equal(added.body.email, 'jane.doe@customer.test');
    assert.equal(added.body.reason, 'manual');
    assert.equal(added.body.message_id, null);
    const again = await world.app.call('POST', '/v1/email/suppressions', { token: manage, body: { email: 'jane.doe@customer.test' } });
    assert.equal(again.status, 200, again.text);
    await world.app.call('POST', '/v1/email/suppressions', { token: manage, body: { email: 'bob@other.test' } });

    const list = await world.app.call('GET', '/v1/email/suppressions', { token: send });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.data.map((s: { email: string }) => s.email),
      ['bob@other.test', 'jane.doe@customer.test'],
    );
    assert.equal(list.body.total, 2);
    assert.equal(list.body.page, 1);
    const filtered = await world.app.call('GET', '/v1/email/suppressions?email=@CUSTOMER.test&limit=1', { token: send });
    assert.equal(filtered.status, 200, filtered.text);
    assert.deepEqual(
      filtered.body.data.map((s: { email: string }) => s.email),
      ['jane.doe@customer.test'],
    );
    const one = await world.app.call('GET', `/v1/email/suppressions/${encodeURIComponent('JANE.doe@customer.test')}`, { token: send });
    assert.equal(one.status, 200, one.text);

    const removed = await world.app.call('DELETE', `/v1/email/suppressions/${encodeURIComponent('Jane.Doe@customer.test')}`, {
      token: manage,
    });
    assert.equal(removed.status, 204, removed.text);
    assertError(
      await world.app.call('DELETE', '/v1/email/suppressions/jane.doe@customer.test', { token: manage }),
      404,
      'suppression_not_found',
    );
    assertError(
      await world.app.call('GET', '/v1/email/suppressions/jane.doe@customer.test', { token: send }),
      404,
      'suppression_not_found',
    );
  });

  it('reading needs email:send; adding and removing need email:suppressions', async () => {
    const { accountId } = await newAccount();
    const { manage, send } = await keys(accountId);
    const manageOnly = (await emailKey(accountId, { scopes: ['email:suppressions'] })).token;
    assertError(
      await world.app.call('POST', '/v1/email/suppressions', { token: send, body: { email: 'a@customer.test' } }),
      403,
      'missing_scope',
    );
    assert.equal(
      (await world.app.call('POST', '/v1/email/suppressions', { token: manage, body: { email: 'a@customer.test' } })).status,
      201,
    );
    assertError(await world.app.call('DELETE', '/v1/email/suppressions/a@customer.test', { token: send }), 403, 'missing_scope');
    assertError(await world.app.call('GET', '/v1/email/suppressions', { token: manageOnly }), 403, 'missing_scope');
    assert.equal((await world.app.call('DELETE', '/v1/email/suppressions/a@customer.test', { token: manageOnly })).status, 204);
  });

  it('a key can be created with the scope email:suppressions through the key API', async () => {
    const { ownerToken } = await newAccount();
    const res = await world.app.call('POST', '/api/email/keys', {
      token: ownerToken,
      body: { name: 'suppressions', environment: 'live', scopes: ['email:send', 'email:suppressions'] },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.scopes, ['email:send', 'email:suppressions']);
  });

  it("another account's suppressions are invisible and cannot be removed", async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const my = await keys(mine.accountId);
    const their = await keys(theirs.accountId);
    await world.app.call('POST', '/v1/email/suppressions', { token: my.manage, body: { email: 'private@customer.test' } });
    const list = await world.app.call('GET', '/v1/email/suppressions', { token: their.send });
    assert.deepEqual(list.body.data, []);
    assertError(
      await world.app.call('GET', '/v1/email/suppressions/private@customer.test', { token: their.send }),
      404,
      'suppression_not_found',
    );
    assertError(
      await world.app.call('DELETE', '/v1/email/suppressions/private@customer.test', { token: their.manage }),
      404,
      'suppression_not_found',
    );
    assert.equal((await world.app.call('GET', '/v1/email/suppressions/private@customer.test', { token: my.send })).status, 200);
  });

  it('an address that is not a bare email address is 400, and unknown query fields are refused', async () => {
    const { accountId } = await newAccount();
    const { manage, send } = await keys(accountId);
    for (const email of ['not an address', 'Jane <jane@customer.test>', '']) {
      assertError(await world.app.call('POST', '/v1/email/suppressions', { token: manage, body: { email } }), 400, 'validation_failed');
    }
    assertError(await world.app.call('GET', '/v1/email/suppressions?reason=bounce', { token: send }), 400, 'validation_failed');
  });
});
