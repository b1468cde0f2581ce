import assert from 'node:assert/strict';
import { blockedAddressKind } from '../../../src/clients/providers/privateAddress';
import { BLOCKED_HOST_CODE, publicOnlyLookup } from '../../../src/clients/providers/safeLookup';

function expectKinds(cases: Array<[address: string, kind: string | null]>) {
  for (const [address, kind] of cases) assert.equal(blockedAddressKind(address), kind, address);
}

describe('private address classifier', () => {
  it('IPv4: loopback, private, link-local, CGNAT, multicast, unspecified and reserved are refused; public is not', () => {
    expectKinds([
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.20', 'private'],
      ['169.254.169.254', 'link_local'],
      ['100.64.0.1', 'cgnat'],
      ['100.127.255.255', 'cgnat'],
      ['224.0.0.251', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['0.0.0.0', 'unspecified'],
      ['255.255.255.255', 'reserved'],
      ['192.0.2.10', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['8.8.8.8', null],
      ['1.1.1.1', null],
      ['172.32.0.1', null],
      ['100.128.0.1', null],
      ['172.15.255.255', null],
      ['93.184.216.34', null],
    ]);
  });

  it('IPv6: loopback, unspecified, unique-local, link-local, multicast and documentation are refused; global unicast is not', () => {
    expectKinds([
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['::', 'unspecified'],
      ['fc00::1', 'unique_local'],
      ['fd12:3456:789a::1', 'unique_local'],
      ['fe80::1', 'link_local'],
      ['febf::1', 'link_local'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'reserved'],
      ['2606:4700:4700::1111', null],
      ['2a00:1450:4001:81c::200e', null],
    ]);
  });

  it('IPv4-mapped IPv6 (dotted or hex) is judged by its IPv4 address, as are NAT64 and 6to4 addresses', () => {
    expectKinds([
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['0:0:0:0:0:ffff:a00:1', 'private'],
      ['::ffff:169.254.169.254', 'link_local'],
      ['::ffff:8.8.8.8', null],
      ['64:ff9b::10.0.0.1', 'private'],
      ['64:ff9b::8.8.8.8', null],
      ['2002:c0a8:0101::1', 'private'],
      ['2002:0808:0808::1', null],
    ]);
  });

  it('brackets and zone ids are read; anything that is not an IP address is invalid', () => {
    expectKinds([
      ['[::1]', 'loopback'],
      ['fe80::1%eth0', 'link_local'],
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['example.com', 'invalid'],
      ['', 'invalid'],
      ['999.1.1.1', 'invalid'],
    ]);
  });

  it('a host name that resolves to a loopback address is refused when it resolves', async () => {
    const err = await new Promise<NodeJS.ErrnoException & { kind?: string }>((resolve) => {
      publicOnlyLookup('localhost', {}, (e) => resolve(e as NodeJS.ErrnoException));
    });
    assert.equal(err?.code, BLOCKED_HOST_CODE);
    assert.equal(err.kind, 'loopback');
  });
});
