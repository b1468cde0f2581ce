import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { DnsLookupError } from '../../../src/email/domains/dnsQuery';
import { lookupMx } from '../../../src/email/domains/mxLookup';
import { startDnsSandbox, type DnsSandbox } from '../../../src/sandbox/dns';
import { newAccount } from '../../helpers/accounts';
import { startPrivateApp } from '../../helpers/privateApp';
import { newEmailKey } from './fixtures';

describe("sandbox DNS: a domain's every record", () => {
  let dns: DnsSandbox;
  const resolver = () => {
    const r = new Resolver({ timeout: 1_000, tries: 1 });
    r.setServers([dns.address]);
    return r;
  };
  before(async () => {
    dns = await startDnsSandbox({ control: true });
  });
  after(async () => {
    await dns.stop();
  });
  afterEach(() => {
    dns.clear();
    dns.heal();
  });

  it('answers MX records to a real resolver, beside TXT records at the same name', async () => {
    dns.setMx('Bounces.Example.com.', [{ exchange: 'Returns.Workyard.test', priority: 10 }]);
    dns.setTxt('bounces.example.com', ['v=spf1 include:returns.workyard.test ~all']);
    assert.deepEqual(await resolver().resolveMx('bounces.example.com'), [{ exchange: 'returns.workyard.test', priority: 10 }]);
    assert.deepEqual(await resolver().resolveTxt('bounces.example.com'), [['v=spf1 include:returns.workyard.test ~all']]);
    dns.removeTxt('bounces.example.com');
    assert.equal((await resolver().resolveMx('bounces.example.com')).length, 1, 'removing the TXT keeps the MX');
  });

  it('MX lookups answer [] for a missing name or type, and a DNS failure is a lookup error', async () => {
    const options = { servers: [dns.address], timeoutMs: 2_000 };
    assert.deepEqual(await lookupMx('bounces.missing.test', options), []);
    dns.setTxt('bounces.txt-only.test', ['x']);
    assert.deepEqual(await lookupMx('bounces.txt-only.test', options), []);
    dns.fail('refused');
    await assert.rejects(lookupMx('bounces.txt-only.test', options), (err) => err instanceof DnsLookupError && err.dnsCode === 'EREFUSED');
  });

  it('the console sets MX records by name and refuses malformed ones', async () => {
    const url = `${dns.controlUrl}/records/${encodeURIComponent('bounces.console.test')}`;
    const put = await fetch(url, { method: 'PUT', body: JSON.stringify({ mx: [{ exchange: 'returns.workyard.test', priority: 5 }] }) });
    assert.equal(put.status, 200);
    assert.deepEqual(await resolver().resolveMx('bounces.console.test'), [{ exchange: 'returns.workyard.test', priority: 5 }]);
    for (const body of ['{"mx":[{"exchange":"x"}]}', '{"mx":[{"exchange":"x","priority":70000}]}', '{}', 'not json']) {
      assert.equal((await fetch(url, { method: 'PUT', body })).status, 400, body);
    }
  });

  it('POST /publish takes a domain as the API answers it: after verify, every record is verified', async () => {
    const app = await startPrivateApp([], {
      config: { EMAIL_DNS_SERVERS: dns.address, EMAIL_RETURN_PATH_DOMAIN: 'returns.sandbox.workyard.test' },
    });
    try {
      const key = await newEmailKey((await newAccount()).accountId, ['email:domains']);
      const created = await app.call('POST', '/v1/email/domains', {
        token: key,
        body: { name: `pub-${Date.now().toString(36)}.example.com` },
      });
      const domain = await app.call('GET', `/v1/email/domains/${created.body.id}`, { token: key });
      const published = await fetch(`${dns.controlUrl}/publish`, { method: 'POST', body: domain.text });
      assert.equal(published.status, 200);
      assert.deepEqual(await published.json(), { published: created.body.records.length });
      const verified = await app.call('POST', `/v1/email/domains/${created.body.id}/verify`, { token: key });
      assert.deepEqual(
        verified.body.records.map((r: { purpose: string; status: string }) => [r.purpose, r.status]),
        created.body.records.map((r: { purpose: string }) => [r.purpose, 'verified']),
      );
      assert.deepEqual(verified.body.sending, { test: true, live: true });
      assert.equal((await fetch(`${dns.controlUrl}/publish`, { method: 'POST', body: '{"records":[{"type":"A"}]}' })).status, 400);
    } finally {
      await app.close();
    }
  });
});
