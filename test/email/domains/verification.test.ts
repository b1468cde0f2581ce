import assert from 'node:assert/strict';
import { parseDnsServers } from '../../../src/email/domains/dnsServers';
import { checkRecords, newVerificationToken, recordName, recordValue } from '../../../src/email/domains/verification';

describe('domain verification record', () => {
  it('is a TXT record at _workyard.<domain> holding workyard-verification=<token of 32+ random characters>', () => {
    const token = newVerificationToken();
    assert.ok(token.length >= 32 && /^[A-Za-z0-9_-]+$/.test(token), token);
    assert.notEqual(newVerificationToken(), token);
    assert.equal(recordName('example.com'), '_workyard.example.com');
    assert.equal(recordValue(token), `workyard-verification=${token}`);
  });

  it('matches when any TXT record at the name equals the value, outer spaces ignored', () => {
    assert.deepEqual(checkRecords(['v=spf1 -all', ' workyard-verification=abc '], 'workyard-verification=abc'), { verified: true });
  });

  it('fails with "record not found" when the name has no TXT record', () => {
    assert.deepEqual(checkRecords([], 'workyard-verification=abc'), { verified: false, reason: 'record not found' });
  });

  it('fails with "value differs" when TXT records exist but none holds the value', () => {
    assert.deepEqual(checkRecords(['workyard-verification=old', 'workyard-verification=ABC'], 'workyard-verification=abc'), {
      verified: false,
      reason: 'value differs',
    });
  });
});

describe('EMAIL_DNS_SERVERS', () => {
  it('takes ip, ip:port and [ipv6]:port, comma-separated; unset or blank means the system resolvers', () => {
    assert.equal(parseDnsServers(undefined), undefined);
    assert.equal(parseDnsServers(' , '), undefined);
    assert.deepEqual(parseDnsServers('127.0.0.1:5353, 8.8.8.8,::1,[2001:db8::53]:53'), [
      '127.0.0.1:5353',
      '8.8.8.8',
      '::1',
      '[2001:db8::53]:53',
    ]);
  });

  it('refuses a host name, a bad port or an unbracketed IPv6 with a port, naming the entry', () => {
    for (const bad of ['dns.example.com', '127.0.0.1:0', '127.0.0.1:70000', '[1.2.3.4]:53', '127.0.0.1:port']) {
      assert.throws(
        () => parseDnsServers(`8.8.8.8,${bad}`),
        (err: Error) => err.message.includes(`"${bad}"`),
        bad,
      );
    }
  });
});
