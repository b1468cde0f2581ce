import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { inspect } from 'node:util';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import MailComposer from 'nodemailer/lib/mail-composer';
import { DkimKeyUnreadableError, dkimKeysFor, signMessage, type DkimSigningKey } from '../../../src/email/dkim';
import {
  createDomain,
  domainDetails,
  forgetAccountDomains,
  rotateDkimKey,
  verifyDomain,
  type DomainDeps,
} from '../../../src/email/domains/service';
import { startDnsSandbox, type DnsSandbox } from '../../../src/sandbox/dns';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { dkimpy } from './dkimpy';

/** A typical transactional message of about 5 KB, composed as the relay path composes it (CRLF line ends). */
async function compose(domain: string, extra: Record<string, unknown> = {}): Promise<Buffer> {
  const paragraph = 'Your order has shipped and is on its way. Track it any time from your account page. ';
  return new MailComposer({
    from: `Acme Support <support@${domain}>`,
    to: 'Jane Doe <jane@customer.test>',
    cc: 'team@customer.test',
    subject: 'Your order #1042 has shipped',
    messageId: `<order-1042@${domain}>`,
    date: new Date('2026-12-01T10:00:00Z'),
    text: paragraph.repeat(25),
    html: `<p>${paragraph.repeat(25)}</p>`,
    headers: {
      'List-Unsubscribe': `<https://${domain}/unsubscribe/abc>, <mailto:unsubscribe@${domain}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    ...extra,
  })
    .compile()
    .build();
}

/** The tags of the first DKIM-Signature header (folding removed). */
function signatureTags(signed: Buffer): Map<string, string> {
  const head = signed
    .toString('utf8')
    .split('\r\n\r\n')[0]
    .replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((l) => /^dkim-signature:/i.test(l));
  assert.ok(line, 'a DKIM-Signature header');
  const tags = new Map<string, string>();
  for (const part of line.slice(line.indexOf(':') + 1).split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) tags.set(part.slice(0, eq).trim(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}

describe('DKIM signing of live mail', () => {
  let dns: DnsSandbox;
  let deps: DomainDeps;
  let accountId: string;
  let n = 0;

  before(async () => {
    dns = await startDnsSandbox();
    deps = {
      db: harness().db,
      secretHashKey: harness().deps.secretHashKey,
      config: { EMAIL_DNS_SERVERS: dns.address, EMAIL_RETURN_PATH_DOMAIN: undefined },
    };
  });
  after(async () => {
    await dns.stop();
  });
  beforeEach(async () => {
    ({ accountId } = await newAccount());
  });

  /** mailauth's verdicts on the message (with its comment, if any), its keys looked up in the sandbox DNS through a real resolver. */
  async function mailauth(message: Buffer): Promise<string[]> {
    const resolver = new Resolver({ timeout: 2_000, tries: 1 });
    resolver.setServers([dns.address]);
    const result = await dkimVerify(message, { resolver: (name: string, type: string) => resolver.resolve(name, type) as never });
    return result.results.map((r) => (r.status.comment ? `${r.status.result} (${r.status.comment})` : r.status.result));
  }

  /** A domain of the account whose records are published and verified: its first key is active. */
  async function signingDomain(): Promise<{ name: string; id: string; keys: DkimSigningKey[]; records: Record<string, string> }> {
    const name = `s${++n}-${Date.now().toString(36)}.example.com`;
    const domain = await createDomain(deps.db, accountId, name, deps.secretHashKey);
    const details = await domainDetails(deps, accountId, domain.id);
    dns.publish(details.records);
    await verifyDomain(deps, accountId, domain.id);
    const dkim = details.records.find((r) => r.purpose === 'dkim')!;
    return { name, id: domain.id, keys: await dkimKeysFor(deps, accountId, name), records: { [dkim.name]: dkim.value } };
  }

  it('a signed message verifies with mailauth against the key record the DNS server answers', async () => {
    const { name, keys } = await signingDomain();
    assert.deepEqual(
      keys.map((k) => [k.domain, k.selector]),
      [[name, 'wy1']],
    );
    const signed = await signMessage(await compose(name), keys);
    assert.deepEqual(await mailauth(signed), ['pass']);
    assert.ok(dns.queries.some((q) => q.name === `wy1._domainkey.${name}`));
  });

  it('the signature is rsa-sha256, relaxed/relaxed, timestamped, and covers From, To, Cc, Subject, Date, Message-ID, MIME-Version, Content-Type and List-Unsubscribe(-Post)', async () => {
    const { name, keys } = await signingDomain();
    const tags = signatureTags(await signMessage(await compose(name), keys));
    assert.equal(tags.get('a'), 'rsa-sha256');
    assert.equal(tags.get('c'), 'relaxed/relaxed');
    assert.equal(tags.get('d'), name);
    assert.equal(tags.get('s'), 'wy1');
    assert.ok(Math.abs(Number(tags.get('t')) - Date.now() / 1000) < 60, 't= is now');
    assert.deepEqual(tags.get('h')!.toLowerCase().split(':').sort(), [
      'cc',
      'content-type',
      'date',
      'from',
      'list-unsubscribe',
      'list-unsubscribe-post',
      'message-id',
      'mime-version',
      'subject',
      'to',
    ]);
  });

  it('headers that are absent are not signed, and the message still verifies', async () => {
    const { name, keys } = await signingDomain();
    const plain = await compose(name, { cc: undefined, headers: {} });
    const signed = await signMessage(plain, keys);
    const h = signatureTags(signed).get('h')!.toLowerCase().split(':');
    assert.ok(!h.includes('cc') && !h.includes('list-unsubscribe'), h.join(':'));
    assert.deepEqual(await mailauth(signed), ['pass']);
  });

  it('an independent verifier (dkimpy) accepts the signature', async () => {
    const { name, keys, records } = await signingDomain();
    const signed = await signMessage(await compose(name), keys);
    assert.equal(dkimpy(signed, records), 'pass');
  });

  it('a tampered body fails verification, with mailauth and with dkimpy', async () => {
    const { name, keys, records } = await signingDomain();
    const signed = (await signMessage(await compose(name), keys)).toString('utf8');
    const tampered = Buffer.from(signed.replace('Track it any time', 'Pay again here'), 'utf8');
    assert.notEqual(tampered.toString('utf8'), signed);
    // mailauth reports a body that no longer matches `bh=` as neutral with its reason, never pass.
    assert.deepEqual(await mailauth(tampered), ['neutral (body hash did not verify)']);
    assert.match(dkimpy(tampered, records), /^fail: body hash mismatch/);
    assert.equal(dkimpy(Buffer.from(signed, 'utf8'), records), 'pass', 'the untouched message passes');
  });

  it('a changed signed header (Subject) fails verification', async () => {
    const { name, keys, records } = await signingDomain();
    const signed = (await signMessage(await compose(name), keys)).toString('utf8');
    const tampered = Buffer.from(
      signed.replace('Subject: Your order #1042 has shipped', 'Subject: Your order #1042 was cancelled'),
      'utf8',
    );
    assert.notEqual(tampered.toString('utf8'), signed);
    assert.deepEqual(await mailauth(tampered), ['fail (bad signature)']);
    assert.match(dkimpy(tampered, records), /^fail/);
  });

  it('without keys the message is returned unchanged', async () => {
    const raw = await compose('unsigned.example.com');
    assert.equal(await signMessage(raw, []), raw);
  });

  it('only active keys sign: none before DKIM verifies, the old key until a rotated key verifies, then the new one', async () => {
    const name = `rot${++n}-${Date.now().toString(36)}.example.com`;
    const domain = await createDomain(deps.db, accountId, name, deps.secretHashKey);
    assert.deepEqual(await dkimKeysFor(deps, accountId, name), [], 'a pending key signs nothing');
    dns.publish((await domainDetails(deps, accountId, domain.id)).records);
    await verifyDomain(deps, accountId, domain.id);
    assert.deepEqual(
      (await dkimKeysFor(deps, accountId, name.toUpperCase())).map((k) => k.selector),
      ['wy1'],
    );
    const next = await rotateDkimKey(deps, accountId, domain.id);
    assert.deepEqual(
      (await dkimKeysFor(deps, accountId, name)).map((k) => k.selector),
      ['wy1'],
      'the old key signs until the new record verifies',
    );
    dns.publish([next]);
    await verifyDomain(deps, accountId, domain.id);
    const keys = await dkimKeysFor(deps, accountId, name);
    assert.deepEqual(
      keys.map((k) => k.selector),
      ['wy2'],
    );
    assert.deepEqual(await mailauth(await signMessage(await compose(name), keys)), ['pass']);
  });

  it("another account's domain, or a domain that is not there, has no signing keys", async () => {
    const { name } = await signingDomain();
    assert.deepEqual(await dkimKeysFor(deps, (await newAccount()).accountId, name), []);
    assert.deepEqual(await dkimKeysFor(deps, accountId, 'nowhere.example.com'), []);
  });

  it('a key sealed under another SECRET_HASH_KEY is a DkimKeyUnreadableError naming its record, not the key', async () => {
    const { name } = await signingDomain();
    forgetAccountDomains(accountId);
    const other = { db: deps.db, secretHashKey: 'another-secret-hash-key-of-32-characters!' };
    const err = await dkimKeysFor(other, accountId, name).then(
      () => assert.fail('the key was unsealed with another secret'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof DkimKeyUnreadableError, String(err));
    assert.equal(err.code, 'dkim_key_unreadable');
    assert.match(err.message, new RegExp(`wy1\\._domainkey\\.${name.replace(/\./g, '\\.')}`));
    assert.equal((await dkimKeysFor(deps, accountId, name)).length, 1, 'a failed read is not cached');
  });

  it('a signing key never shows its private half in JSON or util.inspect', async () => {
    const { keys } = await signingDomain();
    assert.match(keys[0].privateKeyPem, /BEGIN PRIVATE KEY/);
    for (const shown of [JSON.stringify(keys), inspect(keys, { depth: 5 }), `${inspect(keys[0])}`]) {
      assert.ok(!shown.includes('PRIVATE'), shown);
      assert.ok(shown.includes('wy1'), shown);
    }
  });
});
