import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { insecureAuthAllowed } from '../../../src/email/smtp/auth';
import { openDialogue, plainAuth, type WireReply } from './dialogue';
import { assertRefused, emailKey, mail, senderAccount, SMTP_USER, startSmtpWorld, submit, type SmtpWorld } from './kit';

const authLine = (ehlo: WireReply) => ehlo.lines.find((l) => /^AUTH\b/i.test(l));

describe('SMTP submission: AUTH only after STARTTLS', () => {
  let world: SmtpWorld;
  before(async () => {
    world = await startSmtpWorld();
  });
  after(async () => {
    await world.close();
  });

  /** The key's usage as the API reports it (this process's unflushed counts included). */
  async function usageOf(accountToken: string, id: string) {
    const res = await world.app.call('GET', `/api/email/keys/${id}`, { token: accountToken });
    assert.equal(res.status, 200, res.text);
    return res.body as { last_used_at: string | null; usage: { failed_auth_attempts: number } };
  }

  it('the STARTTLS port lists STARTTLS and no AUTH in its EHLO answer before TLS, and AUTH PLAIN LOGIN after it', async () => {
    const dialogue = await openDialogue(world.submission.starttlsPort!);
    try {
      assert.equal((await dialogue.reply()).code, 220);
      const before = await dialogue.command('EHLO client.test');
      assert.equal(before.code, 250);
      assert.ok(before.lines.includes('STARTTLS'), before.lines.join(' | '));
      assert.equal(authLine(before), undefined, `AUTH offered before TLS: ${before.lines.join(' | ')}`);
      assert.equal((await dialogue.startTls()).code, 220);
      const after = await dialogue.command('EHLO client.test');
      assert.equal(authLine(after), 'AUTH PLAIN LOGIN', after.lines.join(' | '));
      assert.ok(!after.lines.includes('STARTTLS'));
    } finally {
      dialogue.close();
    }
  });

  it('AUTH sent before STARTTLS is refused and the key never reaches the key check; MAIL before TLS is 530 5.7.0', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { environment: 'test' });
    const dialogue = await openDialogue(world.submission.starttlsPort!);
    try {
      await dialogue.reply();
      await dialogue.command('EHLO client.test');
      // Not offered, so not there: smtp-server's own refusal, before any of our code reads the credentials.
      const refused = await dialogue.command(plainAuth(SMTP_USER, `${token.slice(0, -4)}AAAA`));
      assert.deepEqual([refused.code, refused.lines], [500, ['5.5.2 Error: command not recognized']]);
      const refusedGood = await dialogue.command(plainAuth(SMTP_USER, token));
      assert.deepEqual([refusedGood.code, refusedGood.lines], [500, ['5.5.2 Error: command not recognized']]);
      const mailFrom = await dialogue.command('MAIL FROM:<support@mail.example.test>');
      assert.equal(mailFrom.code, 530, mailFrom.lines.join(' | '));
      assert.match(mailFrom.lines[0], /^5\.7\.0 encryption_required: /);
    } finally {
      dialogue.close();
    }
    // Neither the wrong secret nor the right one was judged: no failed attempt, no use.
    const untouched = await usageOf(account.ownerToken, id);
    assert.equal(untouched.usage.failed_auth_attempts, 0);
    assert.equal(untouched.last_used_at, null);

    // The same wrong secret after STARTTLS is judged (and counted), so the count above could move.
    const secured = await openDialogue(world.submission.starttlsPort!);
    try {
      await secured.reply();
      await secured.command('EHLO client.test');
      await secured.startTls();
      await secured.command('EHLO client.test');
      assert.equal((await secured.command(plainAuth(SMTP_USER, `${token.slice(0, -4)}AAAA`))).code, 535);
    } finally {
      secured.close();
    }
    assert.equal((await usageOf(account.ownerToken, id)).usage.failed_auth_attempts, 1);
  });

  it('nodemailer without STARTTLS sends no key (AUTH is not offered) and its MAIL is 530 encryption_required', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { environment: 'test' });
    const plain = await submit(world, `${token.slice(0, -4)}AAAA`, mail(), { ignoreTLS: true, requireTLS: false });
    assertRefused(plain, 530, '5.7.0', 'encryption_required');
    const forced = await submit(world, `${token.slice(0, -4)}AAAA`, mail(), { ignoreTLS: true, requireTLS: false, forceAuth: true });
    assert.equal(forced.ok, false);
    if (!forced.ok) assert.notEqual(forced.code, 535, forced.response);
    assert.equal((await usageOf(account.ownerToken, id)).usage.failed_auth_attempts, 0);
  });

  it("Python's smtplib does not send the key before STARTTLS and logs in after it", async function () {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const answer = await smtplibLogin(world.submission.starttlsPort!, token).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (answer === null) return this.skip(); // no python3 on this machine
    assert.deepEqual(answer, { auth_before_tls: false, login_before_tls: 'not_offered', auth_after_tls: true, login_after_tls: 235 });
  });

  it('SMTP_SUBMISSION_ALLOW_INSECURE_LOOPBACK offers and accepts AUTH without TLS to a loopback peer only', async () => {
    const on = { SMTP_SUBMISSION_ALLOW_INSECURE_LOOPBACK: true };
    const off = { SMTP_SUBMISSION_ALLOW_INSECURE_LOOPBACK: false };
    assert.equal(insecureAuthAllowed(on, '127.0.0.1'), true);
    assert.equal(insecureAuthAllowed(on, '::ffff:127.0.0.1'), true);
    assert.equal(insecureAuthAllowed(on, '::1'), true);
    assert.equal(insecureAuthAllowed(on, '10.1.2.3'), false);
    assert.equal(insecureAuthAllowed(on, '::ffff:192.0.2.7'), false);
    assert.equal(insecureAuthAllowed(off, '127.0.0.1'), false);

    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const insecure = await startSmtpWorld(on);
    try {
      const dialogue = await openDialogue(insecure.submission.starttlsPort!);
      try {
        await dialogue.reply();
        assert.equal(authLine(await dialogue.command('EHLO client.test')), 'AUTH PLAIN LOGIN');
      } finally {
        dialogue.close();
      }
      const ok = await submit(insecure, token, mail(), { ignoreTLS: true, requireTLS: false });
      assert.ok(ok.ok, ok.response);
    } finally {
      await insecure.close();
    }
  });
});

const SMTPLIB_LOGIN = `
import json, os, smtplib, ssl
out = {}
s = smtplib.SMTP('127.0.0.1', int(os.environ['SMTP_PORT']), timeout=30)
s.ehlo('client.test')
out['auth_before_tls'] = s.has_extn('auth')
try:
    s.login(os.environ['SMTP_USER'], os.environ['SMTP_KEY'])
    out['login_before_tls'] = 'accepted'
except smtplib.SMTPNotSupportedError:
    out['login_before_tls'] = 'not_offered'
except smtplib.SMTPException as e:
    out['login_before_tls'] = type(e).__name__
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
s.starttls(context=context)
s.ehlo('client.test')
out['auth_after_tls'] = s.has_extn('auth')
out['login_after_tls'] = s.login(os.environ['SMTP_USER'], os.environ['SMTP_KEY'])[0]
s.quit()
print(json.dumps(out))
`;

/** Runs smtplib's login against the STARTTLS port (the key passed in the environment, not on the command line). */
function smtplibLogin(port: number, key: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      'python3',
      ['-c', SMTPLIB_LOGIN],
      { env: { ...process.env, SMTP_PORT: String(port), SMTP_USER, SMTP_KEY: key }, timeout: 60_000 },
      (err, stdout, stderr) => (err ? reject(Object.assign(err, { message: `${err.message}\n${stderr}` })) : resolve(JSON.parse(stdout))),
    );
  });
}
