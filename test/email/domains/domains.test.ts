import assert from 'node:assert/strict';
import { isDomainVerified } from '../../../src/email/domains/service';
import { startDnsSandbox, type DnsSandbox } from '../../../src/sandbox/dns';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { ABSENT_IDS, assertError, assertFieldError } from '../../marketing/grounding/fixtures';
import { newEmailKey } from './fixtures';

describe('email sender domains', () => {
  let dns: DnsSandbox;
  let app: PrivateApp;
  let key: string;
  let accountId: string;
  let n = 0;
  const uniqueDomain = () => `d${++n}-${Date.now().toString(36)}.example.com`;

  before(async () => {
    dns = await startDnsSandbox();
    app = await startPrivateApp([], { config: { EMAIL_DNS_SERVERS: dns.address } });
  });
  after(async () => {
    await app.close();
    await dns.stop();
  });
  beforeEach(async () => {
    ({ accountId } = await newAccount());
    key = await newEmailKey(accountId, ['email:domains']);
  });
  afterEach(() => {
    dns.heal();
    dns.delayMs = 0;
  });

  const add = async (name: string, token = key) => {
    const res = await app.call('POST', '/v1/email/domains', { token, body: { name } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const verify = (id: string, token = key) => app.call('POST', `/v1/email/domains/${id}/verify`, { token });
  const publish = (domain: { record: { name: string; value: string } }) => dns.setTxt(domain.record.name, [domain.record.value]);

  it('adding a domain answers 201 pending with the TXT record to publish', async () => {
    const name = uniqueDomain();
    const res = await app.call('POST', '/v1/email/domains', { token: key, body: { name: name.toUpperCase() } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, name, 'lowercased');
    assert.equal(res.body.status, 'pending');
    assert.equal(res.body.verified_at, null);
    assert.equal(res.body.record.type, 'TXT');
    assert.equal(res.body.record.name, `_workyard.${name}`);
    assert.match(res.body.record.value, /^workyard-verification=[A-Za-z0-9_-]{32,}$/);
    assert.deepEqual(res.body.records[0], {
      purpose: 'ownership',
      ...res.body.record,
      requirement: 'required',
      status: 'pending',
      verified_at: null,
      last_checked_at: null,
      last_check_error: null,
    });
    const got = await app.call('GET', `/v1/email/domains/${res.body.id}`, { token: key });
    assert.deepEqual(got.body, res.body);
  });

  it('a domain the account already has is 409 domain_exists, ignoring case', async () => {
    const name = uniqueDomain();
    await add(name);
    assertError(await app.call('POST', '/v1/email/domains', { token: key, body: { name: name.toUpperCase() } }), 409, 'domain_exists');
    const list = await app.call('GET', '/v1/email/domains', { token: key });
    assert.equal(list.body.total, 1);
    // Another account may add the same name.
    const other = await newAccount();
    await add(name, await newEmailKey(other.accountId, ['email:domains']));
  });

  it('the name must be a DNS name: no IP, no trailing dot, at most 233 characters (the DKIM record name fits 253), labels of at most 63', async () => {
    for (const name of [
      '203.0.113.7',
      '2001:db8::1',
      'example.com.',
      `${'a'.repeat(64)}.com`,
      `${'abcdefghi.'.repeat(23)}abcd.com`,
      'localhost',
      'bad_name.com',
      '',
      42,
    ]) {
      assertFieldError(await app.call('POST', '/v1/email/domains', { token: key, body: { name } }), 'body.name');
    }
    assertFieldError(await app.call('POST', '/v1/email/domains', { token: key, body: { name: 'ok.example.com', extra: 1 } }), 'body');
    assert.equal((await app.call('GET', '/v1/email/domains', { token: key })).body.total, 0, 'nothing written');
  });

  it('adding a domain honours Idempotency-Key: a replay answers the same domain and adds none', async () => {
    const name = uniqueDomain();
    const headers = { 'idempotency-key': `add-${name}` };
    const first = await app.call('POST', '/v1/email/domains', { token: key, body: { name }, headers });
    const again = await app.call('POST', '/v1/email/domains', { token: key, body: { name }, headers });
    assert.equal(first.status, 201, first.text);
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.id, first.body.id);
    assert.equal((await app.call('GET', '/v1/email/domains', { token: key })).body.total, 1);
  });

  it('a malformed EMAIL_DNS_SERVERS makes verify 503 dns_not_configured, changing nothing', async () => {
    const misconfigured = await startPrivateApp([], { config: { EMAIL_DNS_SERVERS: 'dns.example.com' } });
    try {
      const domain = await add(uniqueDomain());
      assertError(await misconfigured.call('POST', `/v1/email/domains/${domain.id}/verify`, { token: key }), 503, 'dns_not_configured');
      assert.equal((await app.call('GET', `/v1/email/domains/${domain.id}`, { token: key })).body.status, 'pending');
    } finally {
      await misconfigured.close();
    }
  });

  it("lists the account's domains newest first, paged", async () => {
    const names = [uniqueDomain(), uniqueDomain(), uniqueDomain()];
    for (const name of names) await add(name);
    await add(uniqueDomain(), await newEmailKey((await newAccount()).accountId, ['email:domains']));
    const first = await app.call('GET', '/v1/email/domains?limit=2', { token: key });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual({ total: first.body.total, page: first.body.page, limit: first.body.limit }, { total: 3, page: 1, limit: 2 });
    const second = await app.call('GET', '/v1/email/domains?limit=2&page=2', { token: key });
    assert.deepEqual(
      [...first.body.data, ...second.body.data].map((d: { name: string }) => d.name),
      [...names].reverse(),
    );
    assertFieldError(await app.call('GET', '/v1/email/domains?limit=101', { token: key }), 'query.limit');
  });

  it('verify: a published record makes a pending domain verified, and sends may use it at once', async () => {
    const domain = await add(uniqueDomain());
    assert.equal(await isDomainVerified(harness().db, accountId, domain.name), false);
    publish(domain);
    const res = await verify(domain.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'verified');
    assert.ok(Date.parse(res.body.verified_at) > Date.now() - 60_000);
    assert.equal(res.body.last_check_error, null);
    assert.equal(res.body.last_checked_at, res.body.verified_at);
    assert.ok(dns.queries.some((q) => q.name === `_workyard.${domain.name}` && q.type === 16));
    assert.equal(await isDomainVerified(harness().db, accountId, domain.name.toUpperCase()), true, 'case ignored');
    assert.equal(await isDomainVerified(harness().db, (await newAccount()).accountId, domain.name), false, 'another account');
  });

  it('verify: the longest domain (233 characters) verifies with its DKIM record, whose name fits the DNS limit', async () => {
    const label = 'a'.repeat(63);
    const name = `${label}.${label}.${label}.${`l${++n}${Date.now().toString(36)}`.padEnd(37, 'x')}.com`;
    assert.equal(name.length, 233);
    const domain = await add(name);
    dns.publish(domain.records);
    const res = await verify(domain.id);
    assert.equal(res.body.status, 'verified');
    assert.equal(res.body.dkim_status, 'verified', res.text);
  });

  it('verify: a record with another value fails with "value differs"', async () => {
    const domain = await add(uniqueDomain());
    dns.setTxt(domain.record.name, ['workyard-verification=someone-elses-token', 'v=spf1 -all']);
    const res = await verify(domain.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.last_check_error, 'value differs');
    assert.equal(res.body.verified_at, null);
    assert.ok(res.body.last_checked_at);
  });

  it('verify: no record at the name fails with "record not found"', async () => {
    const domain = await add(uniqueDomain());
    const res = await verify(domain.id);
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.last_check_error, 'record not found');
  });

  it('verify: a failed domain verifies once the record is published', async () => {
    const domain = await add(uniqueDomain());
    assert.equal((await verify(domain.id)).body.status, 'failed');
    publish(domain);
    const res = await verify(domain.id);
    assert.equal(res.body.status, 'verified');
    assert.equal(res.body.last_check_error, null);
  });

  it('verify: a verified domain whose record was removed fails, and sends from it stop at once', async () => {
    const domain = await add(uniqueDomain());
    publish(domain);
    await verify(domain.id);
    assert.equal(await isDomainVerified(harness().db, accountId, domain.name), true);
    dns.removeTxt(domain.record.name);
    const res = await verify(domain.id);
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.last_check_error, 'record not found');
    assert.equal(await isDomainVerified(harness().db, accountId, domain.name), false);
  });

  it('verify: a DNS SERVFAIL is 502 dns_lookup_failed and changes nothing', async () => {
    const domain = await add(uniqueDomain());
    publish(domain);
    const verified = (await verify(domain.id)).body;
    dns.fail('servfail');
    const res = await verify(domain.id);
    assertError(res, 502, 'dns_lookup_failed');
    assert.equal(res.body.dns_error, 'ESERVFAIL');
    assert.ok(!res.text.includes(domain.record.value.split('=')[1]), 'the token stays out of the error');
    assert.deepEqual((await app.call('GET', `/v1/email/domains/${domain.id}`, { token: key })).body, verified);
    assert.equal(await isDomainVerified(harness().db, accountId, domain.name), true, 'a resolver outage does not stop sends');
  });

  it('verify: a DNS server that does not answer in time is 502 dns_lookup_failed and changes nothing', async function () {
    this.timeout(20_000);
    const domain = await add(uniqueDomain());
    dns.fail('drop');
    const started = Date.now();
    const res = await verify(domain.id);
    assertError(res, 502, 'dns_lookup_failed');
    assert.equal(res.body.dns_error, 'ETIMEOUT');
    assert.ok(Date.now() - started < 7_000, `answered after ${Date.now() - started} ms`);
    const got = await app.call('GET', `/v1/email/domains/${domain.id}`, { token: key });
    assert.equal(got.body.status, 'pending');
    assert.equal(got.body.last_checked_at, null);
  });

  it('delete answers 204; the domain is gone and no longer verified for sends', async () => {
    const domain = await add(uniqueDomain());
    publish(domain);
    await verify(domain.id);
    assert.equal(await isDomainVerified(harness().db, accountId, domain.name), true);
    const res = await app.call('DELETE', `/v1/email/domains/${domain.id}`, { token: key });
    assert.equal(res.status, 204, res.text);
    assert.equal(await isDomainVerified(harness().db, accountId, domain.name), false);
    assertError(await app.call('GET', `/v1/email/domains/${domain.id}`, { token: key }), 404, 'domain_not_found');
    assertError(await app.call('DELETE', `/v1/email/domains/${domain.id}`, { token: key }), 404, 'domain_not_found');
  });

  it("another account's domain, a missing id or a malformed id is 404 domain_not_found and changes nothing", async () => {
    const other = await newAccount();
    const otherKey = await newEmailKey(other.accountId, ['email:domains']);
    const theirs = await add(uniqueDomain(), otherKey);
    publish(theirs);
    for (const id of [theirs.id, ...ABSENT_IDS]) {
      assertError(await app.call('GET', `/v1/email/domains/${id}`, { token: key }), 404, 'domain_not_found');
      assertError(await verify(id), 404, 'domain_not_found');
      assertError(await app.call('POST', `/v1/email/domains/${id}/dkim/rotate`, { token: key }), 404, 'domain_not_found');
      assertError(await app.call('DELETE', `/v1/email/domains/${id}`, { token: key }), 404, 'domain_not_found');
    }
    const still = await app.call('GET', `/v1/email/domains/${theirs.id}`, { token: otherKey });
    assert.equal(still.status, 200);
    assert.equal(still.body.status, 'pending');
    assert.deepEqual(still.body.records, theirs.records, 'no key rotated');
  });

  it('domain routes need an email key with the scope email:domains', async () => {
    const domain = await add(uniqueDomain());
    const sendOnly = await newEmailKey(accountId, ['email:send', 'email:templates']);
    for (const [method, path] of [
      ['POST', '/v1/email/domains'],
      ['GET', '/v1/email/domains'],
      ['GET', `/v1/email/domains/${domain.id}`],
      ['POST', `/v1/email/domains/${domain.id}/verify`],
      ['POST', `/v1/email/domains/${domain.id}/dkim/rotate`],
      ['DELETE', `/v1/email/domains/${domain.id}`],
    ] as const) {
      const body = path === '/v1/email/domains' && method === 'POST' ? { name: uniqueDomain() } : undefined;
      assertError(await app.call(method, path, { token: sendOnly, body }), 403, 'missing_scope');
      assert.equal((await app.call(method, path, { body })).status, 401);
    }
    const { ownerToken } = await newAccount();
    assert.equal((await app.call('GET', '/v1/email/domains', { token: ownerToken })).status, 401, 'a session token is not an email key');
    assert.equal((await app.call('GET', `/v1/email/domains/${domain.id}`, { token: key })).body.status, 'pending', 'nothing changed');
  });
});
