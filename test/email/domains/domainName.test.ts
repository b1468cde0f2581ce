import assert from 'node:assert/strict';
import { domainName, domainNameProblem } from '../../../src/email/domains/name';

describe('sender domain names', () => {
  it('accepts DNS names of two or more labels, lowercased', () => {
    assert.equal(domainName().parse('  Mail.Example.COM '), 'mail.example.com');
    for (const ok of ['example.com', 'a.io', 'xn--bcher-kva.example', 'my-shop.co.uk', `${'a'.repeat(63)}.com`, '1password.com']) {
      assert.equal(domainNameProblem(ok), null, ok);
    }
  });

  it('is at most 233 characters, so that the DKIM record wy<n>._domainkey.<domain> fits the DNS limit of 253, with labels of at most 63', () => {
    const label = 'a'.repeat(63);
    const at233 = `${label}.${label}.${label}.${'b'.repeat(37)}.com`;
    assert.equal(at233.length, 233);
    assert.equal(domainNameProblem(at233), null);
    assert.equal(`wy999999._domainkey.${at233}`.length, 253);
    assert.match(domainNameProblem(`a${at233}`)!, /at most 233/);
    assert.match(domainNameProblem(`${'a'.repeat(64)}.com`)!, /at most 63/);
  });

  it('refuses IP addresses, a trailing dot, empty labels and a single label', () => {
    assert.match(domainNameProblem('192.168.1.10')!, /not an IP/);
    assert.match(domainNameProblem('::1')!, /not an IP/);
    assert.match(domainNameProblem('[2001:db8::1]')!, /not an IP/);
    assert.match(domainNameProblem('example.com.')!, /trailing dot|end with a dot/);
    assert.match(domainNameProblem('example..com')!, /empty labels/);
    assert.match(domainNameProblem('.example.com')!, /empty labels/);
    assert.match(domainNameProblem('localhost')!, /two labels/);
    assert.match(domainNameProblem('10.0.0.300')!, /all digits/);
  });

  it('refuses characters outside letters, digits and inner hyphens', () => {
    for (const bad of [
      '-example.com',
      'example-.com',
      'ex_ample.com',
      'exa mple.com',
      'user@example.com',
      'münchen.de',
      'example.com/path',
    ]) {
      assert.notEqual(domainNameProblem(bad), null, bad);
    }
  });
});
