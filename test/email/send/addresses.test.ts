import assert from 'node:assert/strict';
import { formatMailbox, parseMailbox } from '../../../src/email/send/addresses';

const ok = (input: string) => {
  const result = parseMailbox(input);
  assert.ok(result.ok, `${input}: ${!result.ok && result.error}`);
  return result.mailbox;
};
const bad = (input: string) => assert.equal(parseMailbox(input).ok, false, `${input} should be refused`);

describe('mailbox parsing', () => {
  it('takes a bare address or "Name <address>", lowercasing the domain only', () => {
    assert.deepEqual(ok('Jane.Doe@Example.COM'), { name: null, address: 'Jane.Doe@example.com', domain: 'example.com' });
    assert.deepEqual(ok('Jane Doe <jane@example.com>'), { name: 'Jane Doe', address: 'jane@example.com', domain: 'example.com' });
    assert.deepEqual(ok('  <jane@example.com>  '), { name: null, address: 'jane@example.com', domain: 'example.com' });
    assert.deepEqual(ok('"Doe, Jane \\"JD\\"" <jane@example.com>'), {
      name: 'Doe, Jane "JD"',
      address: 'jane@example.com',
      domain: 'example.com',
    });
    assert.equal(ok('Zoë Ünïcode <z@example.com>').name, 'Zoë Ünïcode');
    assert.equal(ok("o'brien+tag@sub.example.co.uk").address, "o'brien+tag@sub.example.co.uk");
    assert.equal(ok('a@xn--bcher-kva.example').domain, 'xn--bcher-kva.example');
  });

  it('refuses what is not one mailbox', () => {
    for (const input of [
      '',
      'plain',
      '@example.com',
      'a@',
      'a@b',
      'a@localhost',
      'a@1.2.3.4',
      'a@[1.2.3.4]',
      'a b@example.com',
      '.a@example.com',
      'a.@example.com',
      'a..b@example.com',
      'a@-x.example.com',
      'a@x-.example.com',
      'a@exa_mple.com',
      'Name <a@example.com',
      'Name a@example.com>',
      'a@example.com, b@example.com',
      '"Unclosed <a@example.com>',
      'Na"me <a@example.com>',
      `${'l'.repeat(65)}@example.com`,
      `a@${'d'.repeat(64)}.com`,
      'ü@example.com',
      'a@exämple.com',
    ]) {
      bad(input);
    }
  });

  it('refuses line breaks and control characters anywhere', () => {
    bad('Eve <eve@example.com>\r\nBcc: x@example.com');
    bad('eve@example.com\n');
    bad('Ev\te <eve@example.com>');
    bad('Eve\u0000 <eve@example.com>');
  });

  it('formats a mailbox back, quoting names with special characters', () => {
    assert.equal(formatMailbox(ok('Jane Doe <jane@example.com>')), 'Jane Doe <jane@example.com>');
    assert.equal(formatMailbox(ok('"Doe, Jane" <jane@example.com>')), '"Doe, Jane" <jane@example.com>');
    assert.equal(formatMailbox(ok('jane@example.com')), 'jane@example.com');
  });
});
