import assert from 'node:assert/strict';
import { assertRefused, client, emailKey, mail, senderAccount, startSmtpWorld, submit, type SmtpWorld } from './kit';

describe('SMTP submission: authentication', () => {
  let world: SmtpWorld;
  before(async () => {
    world = await startSmtpWorld();
  });
  after(async () => {
    await world.close();
  });

  it('AUTH PLAIN and AUTH LOGIN both accept the fixed user with an email API key as password', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    for (const authMethod of ['PLAIN', 'LOGIN']) {
      const result = await submit(world, token, mail(), { authMethod });
      assert.ok(result.ok, `${authMethod}: ${result.response}`);
      assert.match(result.response, /^250 2\.0\.0 OK id=/);
    }
  });

  it('a wrong user name or a bad key is 535 5.7.8, and the key never appears in the reply', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const wrongUser = await submit(world, token, mail(), { auth: { user: 'someone', pass: token } });
    assertRefused(wrongUser, 535, '5.7.8', 'invalid_api_key');
    assert.ok(!wrongUser.response.includes(token));
    const badKey = `${token.slice(0, -4)}AAAA`;
    const refused = await submit(world, badKey, mail());
    assertRefused(refused, 535, '5.7.8', 'invalid_api_key');
    assert.ok(!refused.response.includes(badKey));
    assertRefused(await submit(world, 'not-a-key', mail()), 535, '5.7.8');
  });

  it('a key without the email:send scope is 550 5.7.1 missing_scope', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', scopes: ['email:batch'] });
    assertRefused(await submit(world, token, mail()), 550, '5.7.1', 'missing_scope');
  });

  it("a key's IP allowlist judges the SMTP peer address", async () => {
    const account = await senderAccount();
    const { token: outside } = await emailKey(account.accountId, { environment: 'test', allowedIps: ['10.0.0.0/8'] });
    assertRefused(await submit(world, outside, mail()), 550, '5.7.1', 'ip_not_allowed');
    const { token: loopback } = await emailKey(account.accountId, { environment: 'test', allowedIps: ['127.0.0.1/32', '::1'] });
    assert.ok((await submit(world, loopback, mail())).ok);
  });

  it('a revoked key is refused at once: 535 at AUTH, 550 5.7.8 on a connection that authenticated before', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { environment: 'test' });
    const pooled = client(world, token, { pool: true, maxConnections: 1 });
    try {
      assert.ok(await pooled.sendMail(mail()));
      const res = await world.app.call('POST', `/api/email/keys/${id}/revoke`, { token: account.ownerToken });
      assert.equal(res.status, 200, res.text);
      const refused = await pooled.sendMail(mail()).then(
        () => assert.fail('sent with a revoked key'),
        (err: { responseCode?: number; response?: string }) => err,
      );
      assert.equal(refused.responseCode, 550, refused.response);
      assert.match(refused.response ?? '', /^550 5\.7\.8 api_key_revoked/);
    } finally {
      pooled.close();
    }
    assertRefused(await submit(world, token, mail()), 535, '5.7.8', 'api_key_revoked');
  });

  it('STARTTLS (587) and implicit TLS (465) both serve the self-signed certificate', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const starttls = await submit(world, token, mail());
    assert.ok(starttls.ok, starttls.response);
    const implicit = await submit(world, token, mail(), { secure: true });
    assert.ok(implicit.ok, implicit.response);
    const untrusted = await submit(world, token, mail(), { tls: { rejectUnauthorized: true } });
    assert.equal(untrusted.ok, false, 'the certificate is self-signed: a verifying client refuses it');
  });
});
