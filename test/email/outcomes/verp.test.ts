import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { reportTag } from '../../../src/email/returnPath/handle';
import type { Report } from '../../../src/email/returnPath/report';
import { readVerp, readVerpEnvelopeId, verpAddress, verpEnvelopeId, verpNames } from '../../../src/email/returnPath/verp';

const SECRET = randomBytes(32).toString('hex');
const DOMAIN = 'returns.example.test';
const ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const OTHER_ID = '9b2c1c1e-8f0a-4a51-9d6e-0d1c5b0b3a11';
const JANE = 'jane.doe@customer.test';
const BOB = 'bob@customer.test';

const dsn = (envelopeId: string | null): Report => ({
  kind: 'dsn',
  envelopeId,
  reportingMta: null,
  originalMessageId: null,
  recipients: [],
});
const arf = (originalMailFrom: string | null): Report => ({
  kind: 'arf',
  feedbackType: 'abuse',
  originalMessageId: `<${ID}@mail.example.test>`,
  originalMailFrom,
  recipients: [],
  userAgent: null,
});

describe('the tagged return path (VERP) of one recipient of one email', () => {
  it('is b+<email id>.<tag>.<check>, within 64 octets, and never names the recipient', () => {
    const address = verpAddress(SECRET, DOMAIN, ID, JANE);
    const [local, domain] = address.split('@');
    assert.equal(domain, DOMAIN);
    assert.match(local, /^b\+3f2504e04f8941d39a0c0305e82c3301\.[a-z2-7]{16}\.[a-z2-7]{10}$/);
    assert.ok(Buffer.byteLength(local) <= 64, `${local.length} octets`);
    assert.ok(!address.includes('jane') && !address.includes('customer'), address);
    assert.equal(verpAddress(SECRET, DOMAIN, ID, 'Jane.Doe@Customer.test'), address, 'the recipient is compared in lower case');
    assert.notEqual(verpAddress(SECRET, DOMAIN, ID, BOB), address, 'each recipient has their own');
    assert.notEqual(verpAddress(SECRET, DOMAIN, OTHER_ID, JANE).split('.')[1], local.split('.')[1], 'and each email');
    assert.equal(verpEnvelopeId(SECRET, ID, JANE), local.slice(2), 'the ENVID is the same tagged value');
    assert.throws(() => verpAddress(SECRET, DOMAIN, 'not-an-id', JANE));
  });

  it('reads back only when its MAC verifies (timing-safe), on its own domain, in any case', () => {
    const address = verpAddress(SECRET, DOMAIN, ID, JANE);
    const read = readVerp(SECRET, address, DOMAIN);
    assert.ok(read);
    assert.equal(read.emailId, ID);
    assert.deepEqual(readVerp(SECRET, address.toUpperCase(), DOMAIN.toUpperCase()), read);
    assert.equal(readVerp(SECRET, address, 'other.example.test'), null);
    assert.equal(readVerp(randomBytes(32).toString('hex'), address, DOMAIN), null, 'another server secret');
    const [local] = address.split('@');
    const parts = local.split('.');
    const swap = (s: string) => (s[0] === 'a' ? 'b' : 'a') + s.slice(1);
    assert.equal(readVerp(SECRET, `${parts[0]}.${swap(parts[1])}.${parts[2]}@${DOMAIN}`, DOMAIN), null, 'another tag');
    assert.equal(readVerp(SECRET, `${parts[0]}.${parts[1]}.${swap(parts[2])}@${DOMAIN}`, DOMAIN), null, 'another check');
    assert.equal(readVerp(SECRET, `b+${OTHER_ID.replace(/-/g, '')}.${parts[1]}.${parts[2]}@${DOMAIN}`, DOMAIN), null, 'another email');
    assert.equal(readVerp(SECRET, `bounces+${ID}@${DOMAIN}`, DOMAIN), null, 'the old format carried no MAC');
    assert.equal(readVerp(SECRET, `postmaster@${DOMAIN}`, DOMAIN), null);
    assert.deepEqual(readVerpEnvelopeId(SECRET, verpEnvelopeId(SECRET, ID, JANE)), read);
    assert.equal(readVerpEnvelopeId(SECRET, ID), null);
  });

  it('names its own recipient and no other', () => {
    const { tag } = readVerp(SECRET, verpAddress(SECRET, DOMAIN, ID, JANE), DOMAIN)!;
    assert.equal(verpNames(SECRET, ID, tag, JANE), true);
    assert.equal(verpNames(SECRET, ID, tag, 'JANE.DOE@customer.test'), true);
    assert.equal(verpNames(SECRET, ID, tag, BOB), false);
    assert.equal(verpNames(SECRET, OTHER_ID, tag, JANE), false);
    assert.equal(verpNames(randomBytes(32), ID, tag, JANE), false);
    assert.equal(verpNames(SECRET, 'not-an-id', tag, JANE), false);
  });

  it("a report's tagged value: its return path, else its envelope id, else a feedback report's original sender — never a Message-ID", () => {
    const jane = verpAddress(SECRET, DOMAIN, ID, JANE);
    const bob = verpAddress(SECRET, DOMAIN, ID, BOB);
    const janeTag = readVerp(SECRET, jane, DOMAIN);
    assert.deepEqual(reportTag(SECRET, dsn(null), [jane], DOMAIN), janeTag);
    assert.deepEqual(reportTag(SECRET, dsn(verpEnvelopeId(SECRET, ID, JANE)), [jane], DOMAIN), janeTag);
    assert.equal(reportTag(SECRET, dsn(verpEnvelopeId(SECRET, ID, BOB)), [jane], DOMAIN), null, 'they disagree');
    assert.equal(reportTag(SECRET, dsn(ID), [jane], DOMAIN), null, 'an envelope id that is not ours');
    assert.deepEqual(reportTag(SECRET, dsn(verpEnvelopeId(SECRET, ID, JANE)), [`postmaster@${DOMAIN}`], DOMAIN), janeTag);
    assert.equal(reportTag(SECRET, dsn(null), [jane, bob], DOMAIN), null, 'two return paths');
    assert.deepEqual(reportTag(SECRET, dsn(null), [jane, jane.toUpperCase()], DOMAIN), janeTag);
    assert.equal(reportTag(SECRET, arf(null), [`fbl@${DOMAIN}`], DOMAIN), null, 'a Message-ID alone');
    assert.deepEqual(reportTag(SECRET, arf(jane), [`fbl@${DOMAIN}`], DOMAIN), janeTag);
    assert.deepEqual(reportTag(SECRET, arf(bob), [jane], DOMAIN), janeTag, 'the address it came to goes first');
  });
});
