import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readTrackingToken, recipientOfTag, trackingToken } from '../../../src/email/tracking/token';

describe('tracking: tokens', () => {
  const secret = randomBytes(32).toString('hex');
  const target = { accountId: randomUUID(), emailId: randomUUID(), recipient: 'ann@customer.test' };

  it('a token names its account, email, recipient (as a tag) and link, and shows no address', () => {
    const token = trackingToken(secret, { ...target, kind: 'click', link: 513 });
    const read = readTrackingToken(secret, token)!;
    assert.equal(read.kind, 'click');
    assert.equal(read.accountId, target.accountId);
    assert.equal(read.emailId, target.emailId);
    assert.equal(read.link, 513);
    assert.equal(
      recipientOfTag(secret, target.emailId, read.recipientTag, ['bob@customer.test', 'ann@customer.test']),
      'ann@customer.test',
    );
    assert.ok(!Buffer.from(token, 'base64url').includes('ann@'), 'the address is not in the token');
    const open = readTrackingToken(secret, trackingToken(secret, { ...target, recipient: 'Ann@Customer.TEST', kind: 'open' }))!;
    assert.deepEqual([open.kind, open.link], ['open', null]);
    assert.equal(recipientOfTag(secret, target.emailId, open.recipientTag, ['ann@customer.test']), 'ann@customer.test', 'any case');
  });

  it('a token made under another secret, altered in any byte, cut or extended is refused', () => {
    const token = trackingToken(secret, { ...target, kind: 'click', link: 0 });
    assert.equal(readTrackingToken(randomBytes(32).toString('hex'), token), null);
    const bytes = Buffer.from(token, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const altered = Buffer.from(bytes);
      altered[i] ^= 0x01;
      assert.equal(readTrackingToken(secret, altered.toString('base64url')), null, `byte ${i}`);
    }
    for (const bad of [token.slice(0, -1), `${token}A`, `${token}=`, '', 'A'.repeat(500), token.replace(/.$/, '+')])
      assert.equal(readTrackingToken(secret, bad), null, bad);
  });
});
