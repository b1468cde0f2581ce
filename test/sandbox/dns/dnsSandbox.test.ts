import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import DNS from 'dns2';
import { startDnsSandbox, type DnsSandbox } from '../../../src/sandbox/dns';

/** A fresh resolver (no cached answers) asking only the sandbox. */
function resolverFor(dns: DnsSandbox, timeout = 1_000): Resolver {
  const resolver = new Resolver({ timeout, tries: 1 });
  resolver.setServers([dns.address]);
  return resolver;
}

async function dnsError(lookup: Promise<unknown>): Promise<string> {
  try {
    await lookup;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'no code';
  }
  return assert.fail('the lookup succeeded');
}

describe('DNS sandbox', () => {
  let dns: DnsSandbox;
  before(async () => {
    dns = await startDnsSandbox({ control: true });
  });
  after(async () => {
    await dns.stop();
  });
  afterEach(() => {
    dns.clear();
    dns.heal();
    dns.delayMs = 0;
  });

  it('answers the TXT records it holds to a real resolver', async () => {
    dns.setTxt('_workyard.example.com', ['workyard-verification=abc', 'v=spf1 -all']);
    const records = await resolverFor(dns).resolveTxt('_workyard.example.com');
    assert.deepEqual(records.map((r) => r.join('')).sort(), ['v=spf1 -all', 'workyard-verification=abc']);
    assert.deepEqual(dns.queries.at(-1), { name: '_workyard.example.com', type: 16 });
  });

  it('matches names ignoring case and a trailing dot', async () => {
    dns.setTxt('_Workyard.Example.COM.', ['x']);
    assert.deepEqual(await resolverFor(dns).resolveTxt('_workyard.EXAMPLE.com'), [['x']]);
  });

  it('answers NXDOMAIN for a name it does not hold', async () => {
    assert.equal(await dnsError(resolverFor(dns).resolveTxt('_workyard.nowhere.test')), 'ENOTFOUND');
  });

  it('answers no data for another record type of a held name, and for a name that only has names below it', async () => {
    dns.setTxt('_workyard.example.com', ['x']);
    assert.equal(await dnsError(resolverFor(dns).resolve4('_workyard.example.com')), 'ENODATA');
    assert.equal(await dnsError(resolverFor(dns).resolveTxt('example.com')), 'ENODATA');
  });

  it('publishes a value longer than 255 bytes as several strings of one record', async () => {
    const long = `workyard-verification=${'a'.repeat(300)}`;
    dns.setTxt('long.example.com', [long]);
    const [record] = await resolverFor(dns).resolveTxt('long.example.com');
    assert.equal(record.length, 2);
    assert.equal(record.join(''), long);
  });

  it('answers SERVFAIL or REFUSED on demand until healed', async () => {
    dns.setTxt('_workyard.example.com', ['x']);
    dns.fail('servfail');
    assert.equal(await dnsError(resolverFor(dns).resolveTxt('_workyard.example.com')), 'ESERVFAIL');
    dns.fail('refused');
    assert.equal(await dnsError(resolverFor(dns).resolveTxt('_workyard.example.com')), 'EREFUSED');
    dns.heal();
    assert.deepEqual(await resolverFor(dns).resolveTxt('_workyard.example.com'), [['x']]);
  });

  it('fails only the next n queries when given a count', async () => {
    dns.setTxt('_workyard.example.com', ['x']);
    dns.fail('servfail', 1);
    const resolver = new Resolver({ timeout: 1_000, tries: 1 });
    resolver.setServers([dns.address]);
    const before = dns.queries.length;
    // c-ares retries a SERVFAIL once per try; with one try it reports it.
    assert.equal(await dnsError(resolver.resolveTxt('_workyard.example.com')), 'ESERVFAIL');
    assert.equal(dns.queries.length, before + 1);
    assert.deepEqual(await resolverFor(dns).resolveTxt('_workyard.example.com'), [['x']]);
  });

  it('times a client out when it drops queries or answers too slowly', async () => {
    dns.setTxt('_workyard.example.com', ['x']);
    dns.fail('drop');
    assert.equal(await dnsError(resolverFor(dns, 200).resolveTxt('_workyard.example.com')), 'ETIMEOUT');
    dns.heal();
    dns.delayMs = 600;
    assert.equal(await dnsError(resolverFor(dns, 200).resolveTxt('_workyard.example.com')), 'ETIMEOUT');
    assert.deepEqual(await resolverFor(dns, 2_000).resolveTxt('_workyard.example.com'), [['x']]);
  });

  it('answers over TCP on the same port as UDP', async () => {
    dns.setTxt('_workyard.example.com', ['over-tcp']);
    const resolve = DNS.TCPClient({ dns: dns.host, port: dns.port });
    const answer = await resolve('_workyard.example.com', 'TXT');
    assert.deepEqual(
      answer.answers.map((a) => a.data),
      [['over-tcp']],
    );
  });

  it('publishes and removes records through its HTTP console', async () => {
    const url = `${dns.controlUrl}/records/${encodeURIComponent('_workyard.console.test')}`;
    const put = await fetch(url, { method: 'PUT', body: JSON.stringify({ txt: ['workyard-verification=t0k'] }) });
    assert.equal(put.status, 200);
    assert.deepEqual(await resolverFor(dns).resolveTxt('_workyard.console.test'), [['workyard-verification=t0k']]);
    const listed = (await (await fetch(`${dns.controlUrl}/records`)).json()) as { records: unknown[] };
    assert.deepEqual(listed.records, [{ name: '_workyard.console.test', txt: ['workyard-verification=t0k'] }]);
    assert.equal((await fetch(url, { method: 'PUT', body: '{"txt":"not a list"}' })).status, 400);
    assert.equal((await fetch(url, { method: 'DELETE' })).status, 204);
    assert.equal(await dnsError(resolverFor(dns).resolveTxt('_workyard.console.test')), 'ENOTFOUND');
  });
});
