import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config';

function refusal(value: string): string {
  try {
    loadConfig({ TRUST_PROXY: value });
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  assert.fail(`TRUST_PROXY=${value} was accepted`);
}

describe('TRUST_PROXY: off by default, a hop count or a list of proxies; a bad value stops start-up naming it', () => {
  it('unset, empty, false and 0 trust no proxy', () => {
    for (const value of [undefined, '', ' ', 'false', '0'])
      assert.equal(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY, false, String(value));
  });

  it('a whole number is a hop count', () => {
    assert.deepEqual(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY, { hops: 1 });
    assert.deepEqual(loadConfig({ TRUST_PROXY: ' 3 ' }).TRUST_PROXY, { hops: 3 });
  });

  it('a comma list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal is a list of proxies', () => {
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.7/8, 172.16.0.0/12,2001:DB8::1,loopback' }).TRUST_PROXY, {
      proxies: ['10.0.0.0/8', '172.16.0.0/12', '2001:db8::1', '127.0.0.0/8', '::1/128'],
    });
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'linklocal,uniquelocal' }).TRUST_PROXY, {
      proxies: ['169.254.0.0/16', 'fe80::/10', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
    });
  });

  it('true, negative or fractional counts, bad addresses and empty entries are refused naming TRUST_PROXY', () => {
    assert.match(refusal('true'), /TRUST_PROXY: .*any client/);
    for (const value of ['-1', '1.5', '10.0.0.0/33', 'proxy.internal', '10.0.0.1,,10.0.0.2', '10.0.0.1,']) {
      assert.match(refusal(value), /TRUST_PROXY: /, value);
    }
  });
});
