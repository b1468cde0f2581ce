import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { newAccount, newUser, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { ABSENT_IDS, assertError, assertFieldError } from '../../marketing/grounding/fixtures';

const KEY_FIELDS = [
  'allowed_domains',
  'allowed_ips',
  'created_at',
  'daily_cap',
  'display',
  'environment',
  'id',
  'last_used_at',
  'name',
  'object',
  'rate_per_second',
  'revoked_at',
  'rotated_from_key_id',
  'scopes',
  'status',
  'updated_at',
];

async function addDomain(accountId: string, name: string, status = 'pending') {
  await harness()
    .db('email_domains')
    .insert({ account_id: accountId, name, status, verification_token: randomBytes(8).toString('hex') });
}

describe('email keys: management', () => {
  let account: TestAccount;
  beforeEach(async () => {
    account = await newAccount();
  });

  const create = (body: Record<string, unknown>, token = account.ownerToken, headers?: Record<string, string>) =>
    call('POST', '/api/email/keys', { token, body: { name: 'app', environment: 'live', scopes: ['email:send'], ...body }, headers });

  it('a created key is svc_live_/svc_test_ + id + 32 random bytes, shown once with its settings and defaults', async () => {
    const live = await create({});
    assert.equal(live.status, 201, live.text);
    assert.deepEqual(Object.keys(live.body).sort(), [...KEY_FIELDS, 'secret'].sort());
    assert.match(live.body.secret, /^svc_live_[0-9a-f]{32}[A-Za-z0-9_-]{43}$/);
    assert.equal(live.body.secret.slice(9, 41), live.body.id.replace(/-/g, ''), 'the id is embedded for the lookup');
    assert.equal(live.body.display, `svc_live_…${live.body.secret.slice(-4)}`);
    assert.equal(live.body.rate_per_second, 10, 'default 10 per second');
    assert.equal(live.body.daily_cap, null);
    assert.equal(live.body.allowed_domains, null);
    assert.equal(live.body.allowed_ips, null);
    assert.equal(live.body.status, 'active');

    const test = await create({ environment: 'test', scopes: ['email:batch', 'email:send'], rate_per_second: 50, daily_cap: 1000 });
    assert.match(test.body.secret, /^svc_test_/);
    assert.deepEqual(test.body.scopes, ['email:batch', 'email:send']);
    assert.equal(test.body.rate_per_second, 50);
    assert.equal(test.body.daily_cap, 1000);
  });

  it('only a hash of the secret is stored, never the secret', async () => {
    const res = await create({});
    const row = await harness().db('email_keys').where({ id: res.body.id }).first();
    const secretPart = res.body.secret.slice(41);
    assert.ok(!JSON.stringify(row).includes(secretPart), 'the secret appears nowhere in the row');
    assert.match(row.secret_hash, /^[0-9a-f]{64}$/);
    assert.equal(row.secret_last4, res.body.secret.slice(-4));
  });

  it('list and get never show the secret', async () => {
    const created = await create({});
    const list = await call('GET', '/api/email/keys', { token: account.ownerToken });
    const get = await call('GET', `/api/email/keys/${created.body.id}`, { token: account.ownerToken });
    assert.equal(list.status, 200);
    assert.equal(get.status, 200);
    for (const text of [list.text, get.text]) {
      assert.ok(!text.includes(created.body.secret.slice(41)), 'no secret');
      assert.ok(!text.includes('secret_hash') && !text.includes('"secret"'));
    }
    assert.deepEqual(Object.keys(list.body.data[0]).sort(), KEY_FIELDS);
    assert.equal(get.body.display, created.body.display);
  });

  it('the list is paged, newest first, revoked keys included', async () => {
    const a = await create({ name: 'a' });
    const b = await create({ name: 'b' });
    await call('POST', `/api/email/keys/${a.body.id}/revoke`, { token: account.ownerToken });
    const page1 = await call('GET', '/api/email/keys?limit=1', { token: account.ownerToken });
    const page2 = await call('GET', '/api/email/keys?limit=1&page=2', { token: account.ownerToken });
    assert.equal(page1.body.total, 2);
    assert.deepEqual([page1.body.data[0].id, page2.body.data[0].id], [b.body.id, a.body.id]);
    assert.equal(page2.body.data[0].status, 'revoked');
  });

  it('owners and admins manage keys; a member is 403', async () => {
    const admin = await newUser(account.accountId, 'admin');
    const member = await newUser(account.accountId, 'member');
    assert.equal((await create({}, admin.token)).status, 201);
    assertError(await create({}, member.token), 403, 'forbidden_role');
    assertError(await call('GET', '/api/email/keys', { token: member.token }), 403, 'forbidden_role');
    assertError(await call('GET', '/api/email/keys', { token: account.agentKey }), 401, 'wrong_credential_kind');
  });

  it("another account's key id, a missing id and a malformed id answer 404 email_key_not_found", async () => {
    const other = await newAccount();
    const theirs = await create({}, other.ownerToken);
    for (const id of [theirs.body.id, ...ABSENT_IDS]) {
      assertError(await call('GET', `/api/email/keys/${id}`, { token: account.ownerToken }), 404, 'email_key_not_found');
      assertError(
        await call('PATCH', `/api/email/keys/${id}`, { token: account.ownerToken, body: { name: 'x' } }),
        404,
        'email_key_not_found',
      );
      assertError(await call('POST', `/api/email/keys/${id}/revoke`, { token: account.ownerToken }), 404, 'email_key_not_found');
      assertError(await call('POST', `/api/email/keys/${id}/rotate`, { token: account.ownerToken }), 404, 'email_key_not_found');
    }
    const row = await harness().db('email_keys').where({ id: theirs.body.id }).first();
    assert.equal(row.revoked_at, null);
    assert.equal(row.name, 'app');
  });

  it('scopes must be a non-empty subset of the email scopes without repeats', async () => {
    assertFieldError(await create({ scopes: [] }), 'body.scopes');
    assertFieldError(await create({ scopes: ['email:send', 'email:send'] }), 'body.scopes');
    assertFieldError(await create({ scopes: ['email:send', 'email:everything'] }), 'body.scopes.1');
    assertFieldError(await create({ environment: 'staging' }), 'body.environment');
    assert.equal(
      await harness()
        .db('email_keys')
        .where({ account_id: account.accountId })
        .count('* as c')
        .first()
        .then((r) => Number(r!.c)),
      0,
    );
  });

  it('rate_per_second is 1..10000 and daily_cap positive', async () => {
    assertFieldError(await create({ rate_per_second: 0 }), 'body.rate_per_second');
    assertFieldError(await create({ rate_per_second: 10_001 }), 'body.rate_per_second');
    assertFieldError(await create({ rate_per_second: 1.5 }), 'body.rate_per_second');
    assertFieldError(await create({ daily_cap: 0 }), 'body.daily_cap');
    assert.equal((await create({ rate_per_second: 10_000 })).status, 201);
  });

  it('allowed_ips takes IPv4/IPv6 addresses and CIDR ranges, stored normalised (v4-mapped as IPv4); anything else is 400', async () => {
    const ok = await create({ allowed_ips: ['203.0.113.7', '10.1.2.3/8', '2001:DB8:0:0::1', '2001:db8::ff/32', '::ffff:1.2.3.4'] });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.body.allowed_ips, ['203.0.113.7', '10.0.0.0/8', '2001:db8::1', '2001:db8::/32', '1.2.3.4']);
    for (const [bad, index] of [
      ['300.1.1.1', 0],
      ['10.0.0.0/33', 0],
      ['2001:db8::/129', 0],
      ['example.com', 0],
      ['1.2.3.4/', 0],
      ['1.2.3.4/8/9', 0],
    ] as const) {
      assertFieldError(await create({ allowed_ips: [bad] }), `body.allowed_ips.${index}`);
    }
    assertFieldError(await create({ allowed_ips: [] }), 'body.allowed_ips');
  });

  it('allowed_domains must be sender domains of the account (verified or not)', async () => {
    await addDomain(account.accountId, 'mail.example.com', 'verified');
    await addDomain(account.accountId, 'pending.example.com');
    const other = await newAccount();
    await addDomain(other.accountId, 'theirs.example.com', 'verified');

    const ok = await create({ allowed_domains: ['Mail.Example.com', 'pending.example.com.'] });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.body.allowed_domains, ['mail.example.com', 'pending.example.com']);
    assertFieldError(
      await create({ allowed_domains: ['mail.example.com', 'theirs.example.com'] }),
      'body.allowed_domains.1',
      'invalid_reference',
    );
    assertFieldError(await create({ allowed_domains: ['not a domain'] }), 'body.allowed_domains.0');
  });

  it('PATCH changes name, limits and allowlists; null clears the cap and allowlists', async () => {
    await addDomain(account.accountId, 'mail.example.com');
    const created = await create({ daily_cap: 5, allowed_ips: ['10.0.0.0/8'] });
    const path = `/api/email/keys/${created.body.id}`;
    const patched = await call('PATCH', path, {
      token: account.ownerToken,
      body: { name: 'renamed', rate_per_second: 99, allowed_domains: ['mail.example.com'] },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.name, 'renamed');
    assert.equal(patched.body.rate_per_second, 99);
    assert.equal(patched.body.daily_cap, 5, 'unsent fields stay');
    assert.deepEqual(patched.body.allowed_domains, ['mail.example.com']);
    const cleared = await call('PATCH', path, {
      token: account.ownerToken,
      body: { daily_cap: null, allowed_ips: null, allowed_domains: null },
    });
    assert.equal(cleared.body.daily_cap, null);
    assert.equal(cleared.body.allowed_ips, null);
    assert.equal(cleared.body.allowed_domains, null);
    assertFieldError(await call('PATCH', path, { token: account.ownerToken, body: { secret: 'x' } }), 'body');
    assertFieldError(await call('PATCH', path, { token: account.ownerToken, body: { environment: 'test' } }), 'body');
  });

  it('revoking is idempotent and answers 200 with the key; the first revoked_at stays', async () => {
    const created = await create({});
    const first = await call('POST', `/api/email/keys/${created.body.id}/revoke`, { token: account.ownerToken });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.status, 'revoked');
    assert.ok(first.body.revoked_at);
    const again = await call('POST', `/api/email/keys/${created.body.id}/revoke`, { token: account.ownerToken });
    assert.equal(again.status, 200);
    assert.equal(again.body.revoked_at, first.body.revoked_at);
  });

  it('rotating returns a new key with the same settings, shown once, and revokes the old one at once', async () => {
    const created = await create({
      environment: 'test',
      scopes: ['email:send', 'email:domains'],
      rate_per_second: 7,
      daily_cap: 9,
      allowed_ips: ['10.0.0.0/8'],
    });
    const rotated = await call('POST', `/api/email/keys/${created.body.id}/rotate`, { token: account.ownerToken });
    assert.equal(rotated.status, 201, rotated.text);
    assert.match(rotated.body.secret, /^svc_test_/);
    assert.notEqual(rotated.body.id, created.body.id);
    assert.equal(rotated.body.rotated_from_key_id, created.body.id);
    for (const field of ['name', 'environment', 'scopes', 'rate_per_second', 'daily_cap', 'allowed_domains', 'allowed_ips']) {
      assert.deepEqual(rotated.body[field], created.body[field], field);
    }
    assert.equal(rotated.body.replaced_key.id, created.body.id);
    assert.equal(rotated.body.replaced_key.status, 'revoked');
    const get = await call('GET', `/api/email/keys/${rotated.body.id}`, { token: account.ownerToken });
    assert.ok(!get.text.includes(rotated.body.secret.slice(41)));
    assertError(await call('POST', `/api/email/keys/${created.body.id}/rotate`, { token: account.ownerToken }), 409, 'email_key_revoked');
  });

  it('Idempotency-Key on create replays the same key and secret without a second key', async () => {
    const headers = { 'idempotency-key': `k-${randomBytes(6).toString('hex')}` };
    const first = await create({ name: 'once' }, account.ownerToken, headers);
    const second = await create({ name: 'once' }, account.ownerToken, headers);
    assert.equal(first.status, 201);
    assert.equal(second.body.id, first.body.id);
    assert.equal(second.body.secret, first.body.secret);
    const count = await harness().db('email_keys').where({ account_id: account.accountId }).count('* as c').first();
    assert.equal(Number(count!.c), 1);
  });

  it('the OpenAPI document describes the key routes, the per-replica share and the secret shown once', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    const create = doc.paths['/api/email/keys'].post;
    assert.match(create.description, /per-replica share/);
    assert.match(create.description, /EMAIL_RATE_REPLICAS/);
    assert.match(create.description, /shown|appears in this response only/);
    for (const [path, method] of [
      ['/api/email/keys', 'get'],
      ['/api/email/keys/{id}', 'get'],
      ['/api/email/keys/{id}', 'patch'],
      ['/api/email/keys/{id}/revoke', 'post'],
      ['/api/email/keys/{id}/rotate', 'post'],
    ]) {
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
    }
  });
});
