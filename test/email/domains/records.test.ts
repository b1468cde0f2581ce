import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { openDkimKey } from '../../../src/email/dkim/keyBox';
import { createDomain, domainSendingState } from '../../../src/email/domains/service';
import { startDnsSandbox, type DnsSandbox } from '../../../src/sandbox/dns';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { assertError } from '../../marketing/grounding/fixtures';
import { newEmailKey } from './fixtures';

const RETURN_PATH = 'returns.workyard.test';

interface RecordJson {
  purpose: string;
  type: 'TXT' | 'MX';
  name: string;
  value: string;
  priority?: number;
  requirement: string;
  status: string;
  last_check_error: string | null;
  selector?: string;
  key_state?: string;
  remove_after?: string | null;
}
const byPurpose = (domain: { records: RecordJson[] }, purpose: string) => domain.records.filter((r) => r.purpose === purpose);
const one = (domain: { records: RecordJson[] }, purpose: string) => {
  const [record, ...more] = byPurpose(domain, purpose);
  assert.ok(record && more.length === 0, `one ${purpose} record in ${JSON.stringify(domain.records)}`);
  return record;
};

describe('email sender domain records (DKIM, return path, DMARC)', () => {
  let dns: DnsSandbox;
  let app: PrivateApp;
  let key: string;
  let accountId: string;
  let n = 0;
  const uniqueDomain = () => `r${++n}-${Date.now().toString(36)}.example.com`;
  const db = () => harness().db;
  const sendingState = (name: string) =>
    domainSendingState({ db: db(), config: { EMAIL_RETURN_PATH_DOMAIN: RETURN_PATH } }, accountId, name);

  before(async () => {
    dns = await startDnsSandbox();
    app = await startPrivateApp([], { config: { EMAIL_DNS_SERVERS: dns.address, EMAIL_RETURN_PATH_DOMAIN: RETURN_PATH } });
  });
  after(async () => {
    await app.close();
    await dns.stop();
  });
  beforeEach(async () => {
    ({ accountId } = await newAccount());
    key = await newEmailKey(accountId, ['email:domains']);
  });
  afterEach(() => dns.heal());

  const add = async (name = uniqueDomain()) => {
    const res = await app.call('POST', '/v1/email/domains', { token: key, body: { name } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const get = async (id: string) => (await app.call('GET', `/v1/email/domains/${id}`, { token: key })).body;
  const verify = async (id: string) => {
    const res = await app.call('POST', `/v1/email/domains/${id}/verify`, { token: key });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const rotate = (id: string, headers?: Record<string, string>) =>
    app.call('POST', `/v1/email/domains/${id}/dkim/rotate`, { token: key, headers });

  it('adding a domain answers every record it needs: ownership, a DKIM key, the return path MX and SPF, DMARC recommended', async () => {
    const domain = await add();
    const d = domain.name;
    assert.deepEqual(
      domain.records.map((r: RecordJson) => [r.purpose, r.type, r.name, r.requirement, r.status]),
      [
        ['ownership', 'TXT', `_workyard.${d}`, 'required', 'pending'],
        ['dkim', 'TXT', `wy1._domainkey.${d}`, 'required', 'pending'],
        ['return_path_mx', 'MX', `bounces.${d}`, 'required', 'pending'],
        ['return_path_spf', 'TXT', `bounces.${d}`, 'required', 'pending'],
        ['dmarc', 'TXT', `_dmarc.${d}`, 'recommended', 'pending'],
      ],
    );
    const dkim = one(domain, 'dkim');
    assert.equal(dkim.selector, 'wy1');
    assert.equal(dkim.key_state, 'pending');
    const match = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/=]+)$/.exec(dkim.value);
    assert.ok(match, dkim.value);
    const publicKey = createPublicKey({ key: Buffer.from(match[1], 'base64'), format: 'der', type: 'spki' });
    assert.equal(publicKey.asymmetricKeyDetails?.modulusLength, 2048);
    assert.deepEqual([one(domain, 'return_path_mx').value, one(domain, 'return_path_mx').priority], [RETURN_PATH, 10]);
    assert.equal(one(domain, 'return_path_spf').value, `v=spf1 include:${RETURN_PATH} ~all`);
    assert.equal(one(domain, 'dmarc').value, 'v=DMARC1; p=none;');
    assert.equal(domain.dkim_status, 'pending');
    assert.deepEqual(domain.sending, { test: false, live: false });
    assert.deepEqual(await get(domain.id), domain, 'GET answers the same');
    assert.ok(!JSON.stringify(domain).includes('PRIVATE'), 'no private key in the answer');
  });

  it('the private key is stored sealed under the credential-hash key and matches the published public key', async () => {
    const domain = await add();
    const [row] = await db()('email_dkim_keys').where({ domain_id: domain.id });
    assert.match(row.private_key_enc, /^v1:/);
    assert.ok(!row.private_key_enc.includes('PRIVATE KEY'));
    const pem = openDkimKey(harness().deps.secretHashKey, row.private_key_enc);
    const derived = createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('base64');
    assert.equal(`v=DKIM1; k=rsa; p=${derived}`, one(domain, 'dkim').value);
  });

  it('without a return-path domain configured, no return-path records are asked for', async () => {
    const bare = await startPrivateApp([], { config: { EMAIL_DNS_SERVERS: dns.address, EMAIL_RETURN_PATH_DOMAIN: undefined } });
    try {
      const res = await bare.call('POST', '/v1/email/domains', { token: key, body: { name: uniqueDomain() } });
      assert.deepEqual(
        res.body.records.map((r: RecordJson) => r.purpose),
        ['ownership', 'dkim', 'dmarc'],
      );
    } finally {
      await bare.close();
    }
  });

  it('verify reports each record on its own; live sending needs DKIM verified, test sending only ownership', async () => {
    const domain = await add();
    dns.setTxt(domain.record.name, [domain.record.value]);
    const first = await verify(domain.id);
    assert.equal(first.status, 'verified');
    assert.equal(one(first, 'ownership').status, 'verified');
    assert.deepEqual([one(first, 'dkim').status, one(first, 'dkim').last_check_error], ['failed', 'record not found']);
    assert.equal(first.dkim_status, 'failed');
    assert.deepEqual(first.sending, { test: true, live: false });
    assert.deepEqual(await sendingState(domain.name), { verified: true, dkimVerified: false, returnPathDomain: null });

    dns.publish(first.records);
    const second = await verify(domain.id);
    for (const record of second.records) assert.equal(record.status, 'verified', JSON.stringify(record));
    assert.equal(one(second, 'dkim').key_state, 'active');
    assert.equal(second.dkim_status, 'verified');
    assert.deepEqual(second.sending, { test: true, live: true });
    assert.deepEqual(await sendingState(domain.name.toUpperCase()), {
      verified: true,
      dkimVerified: true,
      returnPathDomain: `bounces.${domain.name}`,
    });
    assert.ok(
      dns.queries.some((q) => q.name === `bounces.${domain.name}` && q.type === 15),
      'the MX was looked up',
    );
  });

  it('a DKIM record publishing another key fails with "value differs"', async () => {
    const domain = await add();
    const other = await add();
    dns.setTxt(one(domain, 'dkim').name, [one(other, 'dkim').value]);
    const res = await verify(domain.id);
    assert.deepEqual([one(res, 'dkim').status, one(res, 'dkim').last_check_error], ['failed', 'value differs']);
  });

  it('a DKIM record split into several strings, with spaces in the key, verifies', async () => {
    const domain = await add();
    const value = one(domain, 'dkim').value;
    const spaced = `${value.slice(0, 120)} ${value.slice(120, 300)}`;
    dns.setTxt(one(domain, 'dkim').name, [[spaced.slice(0, 200), spaced.slice(200), value.slice(300)]]);
    assert.equal(one(await verify(domain.id), 'dkim').status, 'verified');
  });

  it('the return path fails when an MX names another host, when its SPF lacks the include, and with two SPF records', async () => {
    const domain = await add();
    const host = `bounces.${domain.name}`;
    dns.setMx(host, [
      { exchange: RETURN_PATH, priority: 10 },
      { exchange: 'mx.elsewhere.test', priority: 5 },
    ]);
    dns.setTxt(host, ['v=spf1 include:_spf.elsewhere.test ~all']);
    let res = await verify(domain.id);
    assert.deepEqual([one(res, 'return_path_mx').status, one(res, 'return_path_mx').last_check_error], ['failed', 'value differs']);
    assert.deepEqual([one(res, 'return_path_spf').status, one(res, 'return_path_spf').last_check_error], ['failed', 'value differs']);

    dns.setMx(host, [{ exchange: RETURN_PATH.toUpperCase(), priority: 10 }]);
    dns.setTxt(host, [`v=spf1 include:${RETURN_PATH} ~all`, 'v=spf1 -all']);
    res = await verify(domain.id);
    assert.equal(one(res, 'return_path_mx').status, 'verified');
    assert.deepEqual(one(res, 'return_path_spf').last_check_error, 'more than one SPF record');
    assert.equal((await sendingState(domain.name)).returnPathDomain, null, 'both records must verify for the aligned return path');

    dns.setTxt(host, [`v=spf1 ip4:192.0.2.1 include:${RETURN_PATH} -all`, 'google-site-verification=x']);
    res = await verify(domain.id);
    assert.equal(one(res, 'return_path_spf').status, 'verified');
    assert.equal((await sendingState(domain.name)).returnPathDomain, `bounces.${domain.name}`);
  });

  it('DMARC is recommended: a policy at a parent domain counts, and none leaves sending untouched', async () => {
    const parent = `p${++n}-${Date.now().toString(36)}.example.com`;
    const domain = await add(`mail.${parent}`);
    dns.publish(byPurpose(domain, 'ownership').concat(byPurpose(domain, 'dkim')));
    let res = await verify(domain.id);
    assert.deepEqual([one(res, 'dmarc').status, one(res, 'dmarc').last_check_error], ['failed', 'record not found']);
    assert.deepEqual(res.sending, { test: true, live: true });
    dns.setTxt(`_dmarc.${parent}`, ['v=DMARC1; p=reject; rua=mailto:d@example.com']);
    res = await verify(domain.id);
    assert.equal(one(res, 'dmarc').status, 'verified');
  });

  it('a removed DKIM record stops live sending at once; test sending goes on', async () => {
    const domain = await add();
    dns.publish(domain.records);
    await verify(domain.id);
    assert.equal((await sendingState(domain.name)).dkimVerified, true);
    dns.removeTxt(one(domain, 'dkim').name);
    const res = await verify(domain.id);
    assert.equal(res.dkim_status, 'failed');
    assert.equal(one(res, 'dkim').key_state, 'active', 'still the key that signs once the record is back');
    assert.deepEqual(res.sending, { test: true, live: false });
    assert.deepEqual(await sendingState(domain.name), { verified: true, dkimVerified: false, returnPathDomain: `bounces.${domain.name}` });
  });

  it('a DNS failure on any record is 502 dns_lookup_failed and changes nothing', async () => {
    const domain = await add();
    dns.publish(domain.records);
    const verified = await verify(domain.id);
    dns.removeTxt(one(domain, 'dkim').name);
    dns.fail('servfail', 1);
    const res = await app.call('POST', `/v1/email/domains/${domain.id}/verify`, { token: key });
    assertError(res, 502, 'dns_lookup_failed');
    assert.deepEqual(await get(domain.id), verified);
    assert.equal((await sendingState(domain.name)).dkimVerified, true);
  });

  it('rotation: a new pending key under a new selector; the old key signs until the new record verifies, then retires', async () => {
    const domain = await add();
    dns.publish(domain.records);
    await verify(domain.id);
    const res = await rotate(domain.id);
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      [res.body.purpose, res.body.name, res.body.selector, res.body.key_state, res.body.status],
      ['dkim', `wy2._domainkey.${domain.name}`, 'wy2', 'pending', 'pending'],
    );
    const during = await get(domain.id);
    assert.deepEqual(
      byPurpose(during, 'dkim').map((r) => [r.selector, r.key_state]),
      [
        ['wy1', 'active'],
        ['wy2', 'pending'],
      ],
    );
    assert.equal(during.dkim_status, 'verified', 'the old key still signs');
    assert.equal((await sendingState(domain.name)).dkimVerified, true);

    const unpublished = await verify(domain.id);
    assert.deepEqual(
      byPurpose(unpublished, 'dkim').map((r) => [r.selector, r.key_state, r.status]),
      [
        ['wy1', 'active', 'verified'],
        ['wy2', 'pending', 'failed'],
      ],
    );
    assert.deepEqual(unpublished.sending, { test: true, live: true });

    dns.setTxt(res.body.name, [res.body.value]);
    const after = await verify(domain.id);
    const [old, current] = byPurpose(after, 'dkim');
    assert.deepEqual([old.selector, old.key_state, old.requirement], ['wy1', 'retiring', 'recommended']);
    const days = (Date.parse(old.remove_after!) - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `remove_after in ${days} days`);
    assert.deepEqual([current.selector, current.key_state, current.status], ['wy2', 'active', 'verified']);
    assert.equal(after.dkim_status, 'verified');
  });

  it('rotating again before the new record verifies replaces the pending key; selectors are never reused', async () => {
    const domain = await add();
    assert.equal((await rotate(domain.id)).body.selector, 'wy2');
    assert.equal((await rotate(domain.id)).body.selector, 'wy3');
    const now = await get(domain.id);
    assert.deepEqual(
      byPurpose(now, 'dkim').map((r) => [r.selector, r.key_state]),
      [['wy3', 'pending']],
    );
  });

  it('rotation honours Idempotency-Key: a replay answers the same key and makes none', async () => {
    const domain = await add();
    const headers = { 'idempotency-key': `rotate-${domain.id}` };
    const first = await rotate(domain.id, headers);
    const again = await rotate(domain.id, headers);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal((await db()('email_dkim_keys').where({ domain_id: domain.id })).length, 1);
  });

  it("rotating another account's domain is 404 and changes nothing", async () => {
    const theirs = await add();
    const otherKey = await newEmailKey((await newAccount()).accountId, ['email:domains']);
    assertError(await app.call('POST', `/v1/email/domains/${theirs.id}/dkim/rotate`, { token: otherKey }), 404, 'domain_not_found');
    assert.deepEqual(await get(theirs.id), theirs);
  });

  it('a domain added before DKIM existed gets its first key on its first read', async () => {
    const row = await createDomain(db(), accountId, uniqueDomain());
    assert.equal((await db()('email_dkim_keys').where({ domain_id: row.id })).length, 0);
    const [read, readAgain] = await Promise.all([get(row.id), get(row.id)]);
    assert.equal(one(read, 'dkim').selector, 'wy1');
    assert.deepEqual(readAgain.records, read.records, 'concurrent first reads make one key');
    assert.equal((await db()('email_dkim_keys').where({ domain_id: row.id })).length, 1);
  });

  it('a changed return-path domain shows the return-path records pending until checked again', async () => {
    const domain = await add();
    dns.publish(domain.records);
    await verify(domain.id);
    const moved = await startPrivateApp([], {
      config: { EMAIL_DNS_SERVERS: dns.address, EMAIL_RETURN_PATH_DOMAIN: 'returns2.workyard.test' },
    });
    try {
      const seen = (await moved.call('GET', `/v1/email/domains/${domain.id}`, { token: key })).body;
      assert.deepEqual(
        [one(seen, 'return_path_mx').value, one(seen, 'return_path_mx').status, one(seen, 'return_path_spf').status],
        ['returns2.workyard.test', 'pending', 'pending'],
      );
      const state = await domainSendingState(
        { db: db(), config: { EMAIL_RETURN_PATH_DOMAIN: 'returns2.workyard.test' } },
        accountId,
        domain.name,
      );
      assert.equal(state.returnPathDomain, null);
      assert.equal(state.dkimVerified, true);
    } finally {
      await moved.close();
    }
  });
});
