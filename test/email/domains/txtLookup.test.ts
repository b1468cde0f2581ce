import assert from 'node:assert/strict';
import { DnsLookupError, lookupTxt } from '../../../src/email/domains/txtLookup';
import { startDnsSandbox, type DnsSandbox } from '../../../src/sandbox/dns';

describe('TXT lookup of a verification record', () => {
  let dns: DnsSandbox;
  const lookup = (name: string, timeoutMs = 2_000) => lookupTxt(name, { servers: [dns.address], timeoutMs });
  before(async () => {
    dns = await startDnsSandbox();
  });
  after(async () => {
    await dns.stop();
  });
  afterEach(() => {
    dns.clear();
    dns.heal();
    dns.delayMs = 0;
  });

  it('answers each TXT record with its strings joined', async () => {
    dns.setTxt('_workyard.example.com', [['workyard-verification=', 'abc'], 'other']);
    assert.deepEqual((await lookup('_workyard.example.com')).sort(), ['other', 'workyard-verification=abc']);
  });

  it('answers no records for a name that does not exist or holds no TXT', async () => {
    assert.deepEqual(await lookup('_workyard.missing.test'), []);
    dns.setTxt('_workyard.sub.example.com', ['x']);
    assert.deepEqual(await lookup('sub.example.com'), []);
  });

  it('reports a server failure as a DNS lookup error, not as a missing record', async () => {
    dns.fail('servfail');
    await assert.rejects(lookup('_workyard.example.com'), (err) => err instanceof DnsLookupError && err.dnsCode === 'ESERVFAIL');
  });

  it('gives up at its deadline, retries included', async () => {
    dns.fail('drop');
    const started = Date.now();
    await assert.rejects(lookup('_workyard.example.com', 400), (err) => err instanceof DnsLookupError && err.dnsCode === 'ETIMEOUT');
    assert.ok(Date.now() - started < 1_500, `took ${Date.now() - started} ms`);
  });
});
