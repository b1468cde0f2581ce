import assert from 'node:assert/strict';
import { IpAllowlist, normaliseIpEntry } from '../../src/net/ipMatch';

const allowlist = (...entries: string[]) =>
  new IpAllowlist(
    entries.map((e) => {
      const r = normaliseIpEntry(e);
      if (!r.ok) throw new Error(r.message);
      return r.entry;
    }),
  );

describe('email keys: IP allowlist (CIDR matching)', () => {
  it('an IPv4 /32 matches exactly one address', () => {
    const list = allowlist('203.0.113.7/32');
    assert.equal(list.allows('203.0.113.7'), true);
    assert.equal(list.allows('203.0.113.6'), false);
    assert.equal(list.allows('203.0.113.8'), false);
  });

  it('an IPv4 range includes its first and last address and nothing past them', () => {
    const list = allowlist('10.20.0.0/16');
    assert.equal(list.allows('10.20.0.0'), true);
    assert.equal(list.allows('10.20.255.255'), true);
    assert.equal(list.allows('10.19.255.255'), false);
    assert.equal(list.allows('10.21.0.0'), false);
    const odd = allowlist('192.168.1.64/26');
    assert.deepEqual(
      ['192.168.1.63', '192.168.1.64', '192.168.1.127', '192.168.1.128'].map((ip) => odd.allows(ip)),
      [false, true, true, false],
    );
  });

  it('IPv4 /0 allows every IPv4 source and no IPv6 one', () => {
    const list = allowlist('0.0.0.0/0');
    assert.equal(list.allows('0.0.0.0'), true);
    assert.equal(list.allows('255.255.255.255'), true);
    assert.equal(list.allows('2001:db8::1'), false);
  });

  it('an IPv6 /128 matches exactly one address, however it is written', () => {
    const list = allowlist('2001:db8::1/128');
    assert.equal(list.allows('2001:db8::1'), true);
    assert.equal(list.allows('2001:0DB8:0000:0000:0000:0000:0000:0001'), true);
    assert.equal(list.allows('2001:db8::2'), false);
    assert.equal(list.allows('[2001:db8::1]'), true);
  });

  it('an IPv6 range includes its boundaries and nothing past them', () => {
    const list = allowlist('2001:db8:abcd::/48');
    assert.equal(list.allows('2001:db8:abcd::'), true);
    assert.equal(list.allows('2001:db8:abcd:ffff:ffff:ffff:ffff:ffff'), true);
    assert.equal(list.allows('2001:db8:abcc:ffff:ffff:ffff:ffff:ffff'), false);
    assert.equal(list.allows('2001:db8:abce::'), false);
  });

  it('IPv6 ::/0 allows every IPv6 source', () => {
    const list = allowlist('::/0');
    assert.equal(list.allows('::1'), true);
    assert.equal(list.allows('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'), true);
  });

  it('an IPv4-mapped IPv6 source (::ffff:1.2.3.4) matches an IPv4 range', () => {
    const list = allowlist('1.2.3.0/24');
    assert.equal(list.allows('::ffff:1.2.3.4'), true);
    assert.equal(list.allows('::FFFF:1.2.3.255'), true);
    assert.equal(list.allows('::ffff:1.2.4.1'), false);
    assert.equal(list.allows('::ffff:0102:0304'), true, 'hex form of the mapped address');
  });

  it('an IPv4-mapped IPv6 entry is stored as IPv4 and matches IPv4 sources', () => {
    assert.deepEqual(normaliseIpEntry('::ffff:1.2.3.4'), { ok: true, entry: '1.2.3.4' });
    assert.deepEqual(normaliseIpEntry('::ffff:10.0.0.0/104'), { ok: true, entry: '10.0.0.0/8' });
    assert.equal(allowlist('::ffff:10.0.0.0/104').allows('10.9.9.9'), true);
  });

  it('a range is stored as its network address; host bits are dropped', () => {
    assert.deepEqual(normaliseIpEntry('10.1.2.3/8'), { ok: true, entry: '10.0.0.0/8' });
    assert.deepEqual(normaliseIpEntry('2001:DB8:1:2:3:4:5:6/64'), { ok: true, entry: '2001:db8:1:2::/64' });
    assert.deepEqual(normaliseIpEntry('1.2.3.4/0'), { ok: true, entry: '0.0.0.0/0' });
    assert.deepEqual(normaliseIpEntry('2001:db8:0:0:1:0:0:1'), { ok: true, entry: '2001:db8::1:0:0:1' });
  });

  it('malformed entries are refused', () => {
    for (const bad of [
      '',
      '1.2.3',
      '1.2.3.256',
      '1.2.3.4/33',
      '1.2.3.4/-1',
      '1.2.3.4/ 8',
      '::/129',
      'fe80::1%eth0',
      'a.b.c.d',
      '1.2.3.4/8/1',
      '01.2.3.4',
    ]) {
      assert.equal(normaliseIpEntry(bad).ok, false, bad);
    }
  });

  it('a source that is not an address matches nothing', () => {
    assert.equal(allowlist('0.0.0.0/0', '::/0').allows('not-an-ip'), false);
    assert.equal(allowlist('0.0.0.0/0', '::/0').allows(''), false);
  });
});
